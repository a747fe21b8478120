/**
 * Job validation (pkg/apis/batch/validation/validation.go): ValidateJob with the generated
 * selector's checks, ValidateJobSpec and ValidateJobUpdate, with upstream's messages and field
 * paths. The pod template is checked by apps' `validatePodTemplateSpec` subset.
 */
import { field, GoValue, keyPath, path, type FieldErrorList } from "../../errors/index.ts";
import { goLabelSelector, goStringMap } from "../../apps/v1/go-values.ts";
import { validateNonnegativeField, validatePodTemplateSpec } from "../../apps/v1/validation.ts";
import type { PodTemplateSpec } from "../../apps/v1/types.ts";
import { labelSelectorAsSelector } from "../../meta/v1/label-selector-helpers.ts";
import { validateLabelSelector } from "../../meta/v1/validation/label-selector.ts";
import { isDNS1123Label } from "../../meta/v1/validation/name.ts";
import { validateImmutableField, semanticEqual } from "../../meta/v1/validation/immutable.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../meta/v1/validation/object-meta.ts";
import { indexedCompletion, nonIndexedCompletion, podReplacementFailed, podReplacementTerminatingOrFailed } from "./defaults.ts";
import { controllerUidLabel, jobNameLabel, legacyControllerUidLabel, legacyJobNameLabel, type Job, type JobSpec } from "./types.ts";

const maxParallelismForIndexedJob = 100_000;
const maxFailedIndexesForIndexedJob = 100_000;
const completionsSoftLimit = 100_000;
const parallelismLimitForHighCompletions = 10_000;
const maxFailedIndexesLimitForHighCompletions = 10_000;

/** JobValidationOptions: RequirePrefixedLabels is false on updates of Jobs made before 1.27's labels. */
export interface JobValidationOptions {
  requirePrefixedLabels: boolean;
  /** Updating node selector and tolerations of a suspended Job that never started. */
  allowMutableSchedulingDirectives?: boolean;
  /** ElasticIndexedJob (GA). */
  allowElasticIndexedJobs?: boolean;
}

/** core validation `ValidateHasLabel`. */
function validateHasLabel(template: PodTemplateSpec, fldPath: string, key: string, expected: string): FieldErrorList {
  const labels = template.metadata.labels ?? {};
  const at = keyPath(path(fldPath, "labels"), key);
  if (!(key in labels)) return [field.required(at, expected)];
  return labels[key] !== expected ? [field.invalid(at, new GoValue(goStringMap(labels)), `must be '${expected}'`)] : [];
}

/** `validateGeneratedSelector`. */
export function validateGeneratedSelector(job: Job, validateBatchLabels: boolean): FieldErrorList {
  const spec = job.spec;
  if (spec.manualSelector === true || spec.selector === undefined) return [];
  const uid = job.metadata.uid ?? "";
  const name = job.metadata.name ?? "";
  const errs: FieldErrorList = [];
  if (uid === "") errs.push(field.required("metadata.uid"));
  const meta = "spec.template.metadata";
  errs.push(...validateHasLabel(spec.template, meta, legacyControllerUidLabel, uid));
  errs.push(...validateHasLabel(spec.template, meta, legacyJobNameLabel, name));
  const expected: Record<string, string> = {};
  if (validateBatchLabels) {
    errs.push(...validateHasLabel(spec.template, meta, controllerUidLabel, uid));
    errs.push(...validateHasLabel(spec.template, meta, jobNameLabel, name));
    expected[controllerUidLabel] = uid;
    expected[jobNameLabel] = name;
  }
  expected[legacyControllerUidLabel] = uid;
  expected[legacyJobNameLabel] = name;
  const matches = trySelector(spec.selector);
  if (matches !== undefined && !matches(expected))
    errs.push(field.invalid("spec.selector", goLabelSelector(spec.selector), "`selector` not auto-generated"));
  return errs;
}

function trySelector(s: JobSpec["selector"]): ((labels: Record<string, string>) => boolean) | undefined {
  if (s === undefined) return () => false;
  try {
    return labelSelectorAsSelector(s);
  } catch {
    return undefined;
  }
}

/** `validatePodReplacementPolicy`. */
function validatePodReplacementPolicy(spec: JobSpec, fldPath: string): FieldErrorList {
  const v = spec.podReplacementPolicy;
  if (v === undefined) return [];
  if (spec.podFailurePolicy !== undefined)
    return v !== podReplacementFailed ? [field.notSupported(fldPath, v, [podReplacementFailed])] : [];
  return v !== podReplacementFailed && v !== podReplacementTerminatingOrFailed
    ? [field.notSupported(fldPath, v, [podReplacementFailed, podReplacementTerminatingOrFailed])]
    : [];
}

function validateIndexedLimits(spec: JobSpec, fldPath: string): FieldErrorList {
  const errs: FieldErrorList = [];
  if (spec.completions === undefined)
    errs.push(field.required(path(fldPath, "completions"), `when completion mode is ${indexedCompletion}`));
  if (spec.parallelism !== undefined && spec.parallelism > maxParallelismForIndexedJob)
    errs.push(
      field.invalid(
        path(fldPath, "parallelism"),
        spec.parallelism,
        `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is ${indexedCompletion}`,
      ),
    );
  const maxFailed = spec.maxFailedIndexes;
  if (spec.completions !== undefined && maxFailed !== undefined && maxFailed > spec.completions)
    errs.push(field.invalid(path(fldPath, "maxFailedIndexes"), maxFailed, "must be less than or equal to completions"));
  if (maxFailed !== undefined && maxFailed > maxFailedIndexesForIndexedJob)
    errs.push(
      field.invalid(path(fldPath, "maxFailedIndexes"), maxFailed, `must be less than or equal to ${maxFailedIndexesForIndexedJob}`),
    );
  if (spec.completions !== undefined && spec.completions > completionsSoftLimit && spec.backoffLimitPerIndex !== undefined) {
    const tail = `when completions are above ${completionsSoftLimit} and used with backoff limit per index`;
    if (maxFailed === undefined)
      errs.push(field.required(path(fldPath, "maxFailedIndexes"), `must be specified when completions is above ${completionsSoftLimit}`));
    if (spec.parallelism !== undefined && spec.parallelism > parallelismLimitForHighCompletions)
      errs.push(
        field.invalid(
          path(fldPath, "parallelism"),
          spec.parallelism,
          `must be less than or equal to ${parallelismLimitForHighCompletions} ${tail}`,
        ),
      );
    if (maxFailed !== undefined && maxFailed > maxFailedIndexesLimitForHighCompletions)
      errs.push(
        field.invalid(
          path(fldPath, "maxFailedIndexes"),
          maxFailed,
          `must be less than or equal to ${maxFailedIndexesLimitForHighCompletions} ${tail}`,
        ),
      );
  }
  return errs;
}

/** `validateJobSpec`: the checks a Job and a CronJob's job template share. */
export function validateJobSpecFields(spec: JobSpec, fldPath: string): FieldErrorList {
  const errs: FieldErrorList = [];
  for (const f of [
    "parallelism",
    "completions",
    "activeDeadlineSeconds",
    "backoffLimit",
    "ttlSecondsAfterFinished",
    "backoffLimitPerIndex",
  ] as const) {
    const v = spec[f];
    if (v !== undefined) errs.push(...validateNonnegativeField(v, path(fldPath, f)));
  }
  if (spec.maxFailedIndexes !== undefined) {
    errs.push(...validateNonnegativeField(spec.maxFailedIndexes, path(fldPath, "maxFailedIndexes")));
    if (spec.backoffLimitPerIndex === undefined)
      errs.push(field.required(path(fldPath, "backoffLimitPerIndex"), "when maxFailedIndexes is specified"));
  }
  if (spec.managedBy !== undefined && spec.managedBy.length > 63) errs.push(field.tooLong(path(fldPath, "managedBy"), spec.managedBy, 63));
  const mode = spec.completionMode;
  if (mode !== undefined) {
    if (mode !== nonIndexedCompletion && mode !== indexedCompletion)
      errs.push(field.notSupported(path(fldPath, "completionMode"), mode, [nonIndexedCompletion, indexedCompletion]));
    if (mode === indexedCompletion) errs.push(...validateIndexedLimits(spec, fldPath));
  }
  if (mode === undefined || mode === nonIndexedCompletion) {
    if (spec.backoffLimitPerIndex !== undefined)
      errs.push(field.invalid(path(fldPath, "backoffLimitPerIndex"), spec.backoffLimitPerIndex, "requires indexed completion mode"));
    if (spec.maxFailedIndexes !== undefined)
      errs.push(field.invalid(path(fldPath, "maxFailedIndexes"), spec.maxFailedIndexes, "requires indexed completion mode"));
  }
  if (spec.successPolicy !== undefined && mode !== indexedCompletion)
    errs.push(field.invalid(path(fldPath, "successPolicy"), new GoValue("batch.SuccessPolicy{...}"), "requires indexed completion mode"));
  errs.push(...validatePodReplacementPolicy(spec, path(fldPath, "podReplacementPolicy")));
  errs.push(...validatePodTemplateSpec(spec.template, path(fldPath, "template")));
  const restartPolicy = (spec.template.spec["restartPolicy"] as string | undefined) ?? "";
  const rp = path(fldPath, "template", "spec", "restartPolicy");
  // SetDefaults_PodSpec turns an unset restartPolicy into Always: both mean the user chose none.
  if (restartPolicy === "Always" || restartPolicy === "") errs.push(field.required(rp, `valid values: "OnFailure", "Never"`));
  else if (restartPolicy !== "OnFailure" && restartPolicy !== "Never")
    errs.push(field.notSupported(rp, restartPolicy, ["OnFailure", "Never"]));
  else if (spec.podFailurePolicy !== undefined && restartPolicy !== "Never")
    errs.push(field.invalid(rp, restartPolicy, `only "Never" is supported when podFailurePolicy is specified`));
  return errs;
}

/** `ValidateJobSpec`: the shared checks, a required selector that matches the template's labels. */
export function validateJobSpec(spec: JobSpec, fldPath = "spec"): FieldErrorList {
  const errs = validateJobSpecFields(spec, fldPath);
  if (spec.selector === undefined) errs.push(field.required(path(fldPath, "selector")));
  else errs.push(...validateLabelSelector(spec.selector, { allowInvalidLabelValueInSelector: false }, path(fldPath, "selector")));
  const matches = spec.selector === undefined ? undefined : trySelector(spec.selector);
  if (matches !== undefined && !matches(spec.template.metadata.labels ?? {}))
    errs.push(
      field.invalid(
        path(fldPath, "template", "metadata", "labels"),
        new GoValue(goStringMap(spec.template.metadata.labels)),
        "`selector` does not match template `labels`",
      ),
    );
  return errs;
}

/** `ValidateJob`. */
export function validateJob(job: Job, opts: JobValidationOptions = { requirePrefixedLabels: true }): FieldErrorList {
  const errs = [
    ...validateObjectMeta(job.metadata, { namespaced: true }),
    ...validateGeneratedSelector(job, opts.requirePrefixedLabels),
    ...validateJobSpec(job.spec),
  ];
  const { completionMode, completions } = job.spec;
  if (completionMode === indexedCompletion && completions !== undefined && completions > 0) {
    // The controller suffixes `-<index>` to the Pods' hostnames.
    const maximumPodHostname = `${job.metadata.name ?? ""}-${completions - 1}`;
    if (isDNS1123Label(maximumPodHostname).length > 0)
      errs.push(
        field.invalid(
          "metadata.name",
          job.metadata.name ?? "",
          `will not able to create pod with invalid DNS label: ${maximumPodHostname}`,
        ),
      );
  }
  return errs;
}

/** `validateCompletions`: completions change only with parallelism, and only for Indexed Jobs. */
function validateCompletions(spec: JobSpec, old: JobSpec, fldPath: string, opts: JobValidationOptions): FieldErrorList {
  const immutable = validateImmutableField(spec.completions, old.completions, fldPath);
  if (opts.allowElasticIndexedJobs === false || spec.completionMode !== indexedCompletion) return immutable;
  if (semanticEqual(spec.completions, old.completions) || spec.completions === undefined) return [];
  return spec.completions !== spec.parallelism
    ? [field.invalid(fldPath, spec.completions, "can only be modified in tandem with spec.parallelism")]
    : [];
}

/** `validatePodTemplateUpdate`: the template is immutable (scheduling directives aside for a suspended, never started Job). */
function validatePodTemplateUpdate(spec: JobSpec, old: JobSpec, fldPath: string, opts: JobValidationOptions): FieldErrorList {
  let oldTemplate = old.template;
  if (opts.allowMutableSchedulingDirectives === true) {
    const t = structuredClone(old.template);
    const s = t.spec as Record<string, unknown>;
    const n = spec.template.spec as Record<string, unknown>;
    for (const f of ["nodeSelector", "tolerations", "schedulingGates", "affinity"]) {
      if (n[f] === undefined) delete s[f];
      else s[f] = n[f];
    }
    if (spec.template.metadata.annotations === undefined) delete t.metadata.annotations;
    else t.metadata.annotations = spec.template.metadata.annotations;
    if (spec.template.metadata.labels === undefined) delete t.metadata.labels;
    else t.metadata.labels = spec.template.metadata.labels;
    oldTemplate = t;
  }
  return validateImmutableField(spec.template, oldTemplate, path(fldPath, "template"));
}

/** `ValidateJobUpdate` (with ValidateJobSpecUpdate). */
export function validateJobUpdate(job: Job, old: Job, opts: JobValidationOptions): FieldErrorList {
  const spec = job.spec;
  const prev = old.spec;
  const f = "spec";
  return [
    ...validateObjectMetaUpdate(job.metadata, old.metadata),
    ...validateJobSpec(spec, f),
    ...validateCompletions(spec, prev, path(f, "completions"), opts),
    ...validateImmutableField(spec.selector, prev.selector, path(f, "selector")),
    ...validatePodTemplateUpdate(spec, prev, f, opts),
    ...validateImmutableField(spec.completionMode, prev.completionMode, path(f, "completionMode")),
    ...validateImmutableField(spec.podFailurePolicy, prev.podFailurePolicy, path(f, "podFailurePolicy")),
    ...validateImmutableField(spec.backoffLimitPerIndex, prev.backoffLimitPerIndex, path(f, "backoffLimitPerIndex")),
    ...validateImmutableField(spec.managedBy, prev.managedBy, path(f, "managedBy")),
    ...validateImmutableField(spec.successPolicy, prev.successPolicy, path(f, "successPolicy")),
  ];
}
