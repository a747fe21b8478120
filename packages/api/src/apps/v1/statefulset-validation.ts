/**
 * StatefulSet and ControllerRevision validation (pkg/apis/apps/validation/validation.go
 * ValidateStatefulSet, ValidateStatefulSetSpec, ValidateStatefulSetUpdate, ValidateStatefulSetStatus,
 * ValidateStatefulSetStatusUpdate, ValidateControllerRevision, ValidateControllerRevisionUpdate),
 * with upstream's messages and field paths.
 */
import { field, GoValue, path, type FieldErrorList } from "../../errors/index.ts";
import { labelSelectorAsSelector, type LabelMatcher } from "../../meta/v1/label-selector-helpers.ts";
import { validateLabelSelector } from "../../meta/v1/validation/label-selector.ts";
import { validateAnnotations, validateLabels } from "../../meta/v1/validation/labels.ts";
import { nameIsDNSLabel } from "../../meta/v1/validation/name.ts";
import { semanticEqual, validateImmutableField } from "../../meta/v1/validation/immutable.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../meta/v1/validation/object-meta.ts";
import {
  deletePersistentVolumeClaimRetentionPolicyType,
  onDeleteStatefulSetStrategyType,
  orderedReadyPodManagement,
  parallelPodManagement,
  retainPersistentVolumeClaimRetentionPolicyType,
  rollingUpdateStatefulSetStrategyType,
} from "./statefulset-defaults.ts";
import { goIntOrString, goLabelSelector, goStringMap } from "./go-values.ts";
import type {
  ControllerRevision,
  RollingUpdateStatefulSetStrategy,
  StatefulSet,
  StatefulSetSpec,
  StatefulSetStatus,
} from "./statefulset-types.ts";
import type { PodTemplateSpec } from "./types.ts";
import { validateNonnegativeField, validatePositiveIntOrPercent } from "./validation.ts";

const q = (s: string | undefined): string => JSON.stringify(s ?? "");

/** `%#v` of an apps.RollingUpdateStatefulSetStrategy (field.ErrorBody dereferences the pointer). */
function goRollingUpdate(ru: RollingUpdateStatefulSetStrategy): string {
  const mu = ru.maxUnavailable === undefined ? "(*intstr.IntOrString)(nil)" : "(*intstr.IntOrString)(0xc000000000)";
  return `apps.RollingUpdateStatefulSetStrategy{Partition:${ru.partition ?? 0}, MaxUnavailable:${mu}}`;
}

/** `%#v` of an apps.StatefulSetUpdateStrategy. */
function goUpdateStrategy(s: StatefulSetSpec["updateStrategy"]): GoValue {
  const ru =
    s?.rollingUpdate === undefined
      ? "(*apps.RollingUpdateStatefulSetStrategy)(nil)"
      : "(*apps.RollingUpdateStatefulSetStrategy)(0xc000000000)";
  return new GoValue(`apps.StatefulSetUpdateStrategy{Type:${q(s?.type)}, RollingUpdate:${ru}}`);
}

/** `ValidatePodTemplateSpecForStatefulSet`: the selector matches the labels; labels and annotations (the PodSpec is not validated here, as upstream's TODO says). */
function validatePodTemplateSpecForStatefulSet(
  template: PodTemplateSpec,
  matches: LabelMatcher,
  empty: boolean,
  fldPath: string,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (!empty && !matches(template.metadata.labels ?? {}))
    errs.push(
      field.invalid(
        path(fldPath, "metadata", "labels"),
        new GoValue(goStringMap(template.metadata.labels)),
        "`selector` does not match template `labels`",
      ),
    );
  errs.push(...validateLabels(template.metadata.labels, path(fldPath, "labels")));
  errs.push(...validateAnnotations(template.metadata.annotations, path(fldPath, "annotations")));
  return errs;
}

/** `ValidatePersistentVolumeClaimRetentionPolicyType`. */
function validateRetentionPolicyType(policy: string | undefined, fldPath: string): FieldErrorList {
  const valid = [retainPersistentVolumeClaimRetentionPolicyType, deletePersistentVolumeClaimRetentionPolicyType];
  return valid.includes(policy ?? "") ? [] : [field.notSupported(fldPath, policy ?? "", valid)];
}

/** `validateRollingUpdateStatefulSet`: partition not negative; maxUnavailable (MaxUnavailableStatefulSet, alpha) a positive int or percent up to 100%. */
function validateRollingUpdateStatefulSet(ru: RollingUpdateStatefulSetStrategy, fldPath: string): FieldErrorList {
  const errs = validateNonnegativeField(ru.partition ?? 0, path(fldPath, "partition"));
  const mu = ru.maxUnavailable;
  if (mu !== undefined) {
    const at = path(fldPath, "maxUnavailable");
    errs.push(...validatePositiveIntOrPercent(mu, at));
    const value = typeof mu === "number" ? mu : Number.parseInt(mu, 10) || 0;
    if (value === 0) errs.push(field.invalid(at, goIntOrString(mu), "cannot be 0"));
    if (typeof mu === "string" && value > 100) errs.push(field.invalid(at, goIntOrString(mu), "must not be greater than 100%"));
  }
  return errs;
}

/** `ValidateStatefulSetSpec`. */
export function validateStatefulSetSpec(spec: StatefulSetSpec, fldPath = "spec"): FieldErrorList {
  const errs: FieldErrorList = [];
  const pmp = spec.podManagementPolicy ?? "";
  if (pmp === "") errs.push(field.required(path(fldPath, "podManagementPolicy")));
  else if (pmp !== orderedReadyPodManagement && pmp !== parallelPodManagement)
    errs.push(
      field.invalid(path(fldPath, "podManagementPolicy"), pmp, `must be '${orderedReadyPodManagement}' or '${parallelPodManagement}'`),
    );
  const strategy = spec.updateStrategy;
  switch (strategy?.type ?? "") {
    case "":
      errs.push(field.required(path(fldPath, "updateStrategy")));
      break;
    case onDeleteStatefulSetStrategyType:
      if (strategy?.rollingUpdate !== undefined)
        errs.push(
          field.invalid(
            path(fldPath, "updateStrategy", "rollingUpdate"),
            new GoValue(goRollingUpdate(strategy.rollingUpdate)),
            `only allowed for updateStrategy '${rollingUpdateStatefulSetStrategyType}'`,
          ),
        );
      break;
    case rollingUpdateStatefulSetStrategyType:
      if (strategy?.rollingUpdate !== undefined)
        errs.push(...validateRollingUpdateStatefulSet(strategy.rollingUpdate, path(fldPath, "updateStrategy", "rollingUpdate")));
      break;
    default:
      errs.push(
        field.invalid(
          path(fldPath, "updateStrategy"),
          goUpdateStrategy(strategy),
          `must be '${rollingUpdateStatefulSetStrategyType}' or '${onDeleteStatefulSetStrategyType}'`,
        ),
      );
  }
  const policy = spec.persistentVolumeClaimRetentionPolicy;
  if (policy !== undefined) {
    const at = path(fldPath, "persistentVolumeClaimRetentionPolicy");
    errs.push(...validateRetentionPolicyType(policy.whenDeleted, path(at, "whenDeleted")));
    errs.push(...validateRetentionPolicyType(policy.whenScaled, path(at, "whenScaled")));
  }
  errs.push(...validateNonnegativeField(spec.replicas ?? 0, path(fldPath, "replicas")));
  errs.push(...validateNonnegativeField(spec.minReadySeconds ?? 0, path(fldPath, "minReadySeconds")));
  if (spec.ordinals !== undefined) errs.push(...validateNonnegativeField(spec.ordinals.start, path(fldPath, "ordinals.start")));
  const selector = spec.selector;
  const empty = selector === undefined || Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0;
  if (selector === undefined) errs.push(field.required(path(fldPath, "selector")));
  else {
    errs.push(...validateLabelSelector(selector, { allowInvalidLabelValueInSelector: false }, path(fldPath, "selector")));
    if (empty) errs.push(field.invalid(path(fldPath, "selector"), goLabelSelector(selector), "empty selector is invalid for statefulset"));
  }
  let matches: LabelMatcher | undefined;
  try {
    matches = labelSelectorAsSelector(selector);
  } catch {
    errs.push(field.invalid(path(fldPath, "selector"), selector === undefined ? null : goLabelSelector(selector), ""));
  }
  if (matches !== undefined) errs.push(...validatePodTemplateSpecForStatefulSet(spec.template, matches, empty, path(fldPath, "template")));
  const podSpec = spec.template.spec as Record<string, unknown>;
  const restartPolicy = podSpec["restartPolicy"] ?? "";
  if (restartPolicy !== "Always")
    errs.push(field.notSupported(path(fldPath, "template", "spec", "restartPolicy"), restartPolicy, ["Always"]));
  if (podSpec["activeDeadlineSeconds"] !== undefined && podSpec["activeDeadlineSeconds"] !== null)
    errs.push(
      field.forbidden(path(fldPath, "template", "spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in StatefulSet is not Supported"),
    );
  return errs;
}

/** `ValidateStatefulSet`: names are DNS labels (they prefix the Pods' hostnames). */
export function validateStatefulSet(sts: StatefulSet): FieldErrorList {
  return [...validateObjectMeta(sts.metadata, { namespaced: true, nameValidator: nameIsDNSLabel }), ...validateStatefulSetSpec(sts.spec)];
}

/** The spec fields an update may change (ValidateStatefulSetUpdate's clone of the old values). */
const mutableSpecFields = [
  "replicas",
  "template",
  "updateStrategy",
  "minReadySeconds",
  "ordinals",
  "persistentVolumeClaimRetentionPolicy",
] as const;

/** `ValidateStatefulSetUpdate`: the name is not revalidated; only the mutable fields may change. */
export function validateStatefulSetUpdate(sts: StatefulSet, old: StatefulSet): FieldErrorList {
  const errs = [...validateObjectMetaUpdate(sts.metadata, old.metadata), ...validateStatefulSetSpec(sts.spec)];
  const clone = { ...sts.spec } as Record<string, unknown>;
  const prev = old.spec as Record<string, unknown>;
  for (const f of mutableSpecFields) {
    if (prev[f] === undefined) delete clone[f];
    else clone[f] = prev[f];
  }
  if (!semanticEqual(clone, prev))
    errs.push(
      field.forbidden(
        "spec",
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  return errs;
}

const greaterThanReplicas = "cannot be greater than status.replicas";

/** `ValidateStatefulSetStatus`. */
export function validateStatefulSetStatus(status: StatefulSetStatus | undefined, fldPath = "status"): FieldErrorList {
  const s = { replicas: 0, readyReplicas: 0, currentReplicas: 0, updatedReplicas: 0, availableReplicas: 0, ...status };
  const errs: FieldErrorList = [];
  for (const f of ["replicas", "readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"] as const)
    errs.push(...validateNonnegativeField(s[f], path(fldPath, f)));
  if (s.observedGeneration !== undefined) errs.push(...validateNonnegativeField(s.observedGeneration, path(fldPath, "observedGeneration")));
  if (s.collisionCount !== undefined) errs.push(...validateNonnegativeField(s.collisionCount, path(fldPath, "collisionCount")));
  for (const f of ["readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"] as const)
    if (s[f] > s.replicas) errs.push(field.invalid(path(fldPath, f), s[f], greaterThanReplicas));
  if (s.availableReplicas > s.readyReplicas)
    errs.push(field.invalid(path(fldPath, "availableReplicas"), s.availableReplicas, "cannot be greater than status.readyReplicas"));
  return errs;
}

/** `ValidateStatefulSetStatusUpdate`: the status rules, and collisionCount never decremented. */
export function validateStatefulSetStatusUpdate(sts: StatefulSet, old: StatefulSet): FieldErrorList {
  const errs = [...validateStatefulSetStatus(sts.status), ...validateObjectMetaUpdate(sts.metadata, old.metadata)];
  const now = sts.status?.collisionCount;
  const before = old.status?.collisionCount;
  if (before !== undefined && (now === undefined || now < before))
    errs.push(field.invalid("status.collisionCount", now ?? 0, "cannot be decremented"));
  return errs;
}

/** `ValidateControllerRevision`: data is mandatory, revision not negative. */
export function validateControllerRevision(cr: ControllerRevision): FieldErrorList {
  const errs = validateObjectMeta(cr.metadata, { namespaced: true });
  if (cr.data === undefined || cr.data === null) errs.push(field.required("data", "data is mandatory"));
  errs.push(...validateNonnegativeField(cr.revision, "revision"));
  return errs;
}

/** `ValidateControllerRevisionUpdate`: data is immutable. */
export function validateControllerRevisionUpdate(cr: ControllerRevision, old: ControllerRevision): FieldErrorList {
  return [
    ...validateObjectMetaUpdate(cr.metadata, old.metadata),
    ...validateControllerRevision(cr),
    ...validateImmutableField(cr.data, old.data, "data"),
  ];
}
