/**
 * apps validation (pkg/apis/apps/validation/validation.go): ValidateDeployment, ValidateReplicaSet
 * and their update and status rules, with upstream's messages and field paths.
 */
import { field, path, type FieldErrorList } from "../../errors/index.ts";
import { validatePodSpecContainers } from "../../core/v1/validation/pod.ts";
import { labelSelectorAsSelector, type LabelMatcher } from "../../meta/v1/label-selector-helpers.ts";
import type { LabelSelector } from "../../meta/v1/label-selector.ts";
import { regexError } from "../../meta/v1/validation/name.ts";
import { validateLabelSelector } from "../../meta/v1/validation/label-selector.ts";
import { validateAnnotations, validateLabels } from "../../meta/v1/validation/labels.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../meta/v1/validation/object-meta.ts";
import type { IntOrString } from "../../core/v1/service.ts";
import { recreateDeploymentStrategyType, rollingUpdateDeploymentStrategyType } from "./defaults.ts";
import { goDeploymentStrategy, goIntOrString, goLabelSelector, goStringMap } from "./go-values.ts";
import { GoValue } from "../../errors/index.ts";
import type { Deployment, DeploymentStrategy, PodTemplateSpec, RollingUpdateDeployment } from "./types.ts";

const isNegativeErrorMsg = "must be greater than or equal to 0";

/** `ValidateNonnegativeField`. */
export function validateNonnegativeField(value: number, fldPath: string): FieldErrorList {
  return value < 0 ? [field.invalid(fldPath, value, isNegativeErrorMsg)] : [];
}

const percentRegexp = /^[0-9]+%$/;
/** `validation.IsValidPercent`. */
function isValidPercent(s: string): string[] {
  if (percentRegexp.test(s)) return [];
  return [regexError("a valid percent string must be a numeric string followed by an ending '%'", "[0-9]+%", "1%", "93%")];
}

/** `ValidatePositiveIntOrPercent`. */
export function validatePositiveIntOrPercent(v: IntOrString | undefined, fldPath: string): FieldErrorList {
  if (typeof v === "string") return isValidPercent(v).map((m) => field.invalid(fldPath, goIntOrString(v), m));
  return validateNonnegativeField(v ?? 0, fldPath);
}

/** `getPercentValue`: the number of a valid percent string. */
function percentValue(v: IntOrString | undefined): number | undefined {
  return typeof v === "string" && isValidPercent(v).length === 0 ? Number.parseInt(v.slice(0, -1), 10) : undefined;
}

/** `getIntOrPercentValue`: a percent's number, an int's value, 0 for anything else (IntValue of a bad string). */
function intOrPercentValue(v: IntOrString | undefined): number {
  const pct = percentValue(v);
  if (pct !== undefined) return pct;
  if (typeof v === "number") return v;
  const n = Number.parseInt(v ?? "", 10);
  return Number.isNaN(n) || String(n) !== v ? 0 : n;
}

/** `ValidateRollingUpdateDeployment`. */
export function validateRollingUpdateDeployment(ru: RollingUpdateDeployment, fldPath: string): FieldErrorList {
  const errs = [
    ...validatePositiveIntOrPercent(ru.maxUnavailable, path(fldPath, "maxUnavailable")),
    ...validatePositiveIntOrPercent(ru.maxSurge, path(fldPath, "maxSurge")),
  ];
  if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0)
    errs.push(field.invalid(path(fldPath, "maxUnavailable"), goIntOrString(ru.maxUnavailable), "may not be 0 when `maxSurge` is 0"));
  const pct = percentValue(ru.maxUnavailable);
  if (pct !== undefined && pct > 100)
    errs.push(field.invalid(path(fldPath, "maxUnavailable"), goIntOrString(ru.maxUnavailable), "must not be greater than 100%"));
  return errs;
}

/** `ValidateDeploymentStrategy`. */
export function validateDeploymentStrategy(strategy: DeploymentStrategy, fldPath: string): FieldErrorList {
  switch (strategy.type) {
    case recreateDeploymentStrategyType:
      return strategy.rollingUpdate !== undefined
        ? [field.forbidden(path(fldPath, "rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'")]
        : [];
    case rollingUpdateDeploymentStrategyType:
      return strategy.rollingUpdate === undefined
        ? [field.required(path(fldPath, "rollingUpdate"), "this should be defaulted and never be nil")]
        : validateRollingUpdateDeployment(strategy.rollingUpdate, path(fldPath, "rollingUpdate"));
    default:
      return [
        field.notSupported(fldPath, goDeploymentStrategy(strategy), [recreateDeploymentStrategyType, rollingUpdateDeploymentStrategyType]),
      ];
  }
}

/** `ValidatePodTemplateSpec`'s subset: labels, annotations and the PodSpec's containers (DaemonSets share it). */
export function validatePodTemplateSpec(template: PodTemplateSpec, fldPath: string): FieldErrorList {
  return [
    ...validateLabels(template.metadata.labels, path(fldPath, "labels")),
    ...validateAnnotations(template.metadata.annotations, path(fldPath, "annotations")),
    ...validatePodSpecContainers(template.spec, path(fldPath, "spec")),
  ];
}

/** `ValidatePodTemplateSpecForReplicaSet`: the selector matches the template's labels; restartPolicy Always. */
export function validatePodTemplateSpecForReplicaSet(
  template: PodTemplateSpec | undefined,
  selector: LabelSelector,
  matches: LabelMatcher,
  fldPath: string,
): FieldErrorList {
  if (template === undefined) return [field.required(fldPath)];
  const errs: FieldErrorList = [];
  const empty = Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0;
  if (!empty && !matches(template.metadata.labels ?? {}))
    errs.push(
      field.invalid(
        path(fldPath, "metadata", "labels"),
        new GoValue(goStringMap(template.metadata.labels)),
        "`selector` does not match template `labels`",
      ),
    );
  errs.push(...validatePodTemplateSpec(template, fldPath));
  const restartPolicy = (template.spec as Record<string, unknown>)["restartPolicy"] ?? "";
  if (restartPolicy !== "Always") errs.push(field.notSupported(path(fldPath, "spec", "restartPolicy"), restartPolicy, ["Always"]));
  if ((template.spec as Record<string, unknown>)["activeDeadlineSeconds"] !== undefined)
    errs.push(field.forbidden(path(fldPath, "spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in ReplicaSet is not Supported"));
  return errs;
}

/** The selector checks ValidateDeploymentSpec and ValidateReplicaSetSpec share, then the template's. */
export function validateSelectorAndTemplate(
  selector: LabelSelector | undefined,
  template: PodTemplateSpec | undefined,
  fldPath: string,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (selector === undefined) return [field.required(path(fldPath, "selector"))];
  errs.push(...validateLabelSelector(selector, { allowInvalidLabelValueInSelector: false }, path(fldPath, "selector")));
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0)
    errs.push(field.invalid(path(fldPath, "selector"), goLabelSelector(selector), "empty selector is invalid for deployment"));
  let matches: LabelMatcher;
  try {
    matches = labelSelectorAsSelector(selector);
  } catch {
    return [...errs, field.invalid(path(fldPath, "selector"), goLabelSelector(selector), "invalid label selector")];
  }
  return [...errs, ...validatePodTemplateSpecForReplicaSet(template, selector, matches, path(fldPath, "template"))];
}

/** `ValidateDeploymentSpec`. */
export function validateDeploymentSpec(d: Deployment, fldPath = "spec"): FieldErrorList {
  const spec = d.spec;
  const errs = validateNonnegativeField(spec.replicas ?? 0, path(fldPath, "replicas"));
  errs.push(...validateSelectorAndTemplate(spec.selector, spec.template, fldPath));
  errs.push(...validateDeploymentStrategy(spec.strategy ?? {}, path(fldPath, "strategy")));
  errs.push(...validateNonnegativeField(spec.minReadySeconds ?? 0, path(fldPath, "minReadySeconds")));
  if (spec.revisionHistoryLimit !== undefined)
    errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, path(fldPath, "revisionHistoryLimit")));
  if (spec.progressDeadlineSeconds !== undefined) {
    errs.push(...validateNonnegativeField(spec.progressDeadlineSeconds, path(fldPath, "progressDeadlineSeconds")));
    if (spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0))
      errs.push(
        field.invalid(path(fldPath, "progressDeadlineSeconds"), spec.progressDeadlineSeconds, "must be greater than minReadySeconds"),
      );
  }
  return errs;
}

/** `ValidateDeployment`. */
export function validateDeployment(d: Deployment): FieldErrorList {
  return [...validateObjectMeta(d.metadata, { namespaced: true }), ...validateDeploymentSpec(d)];
}

/** `ValidateDeploymentUpdate`. */
export function validateDeploymentUpdate(d: Deployment, old: Deployment): FieldErrorList {
  return [...validateObjectMetaUpdate(d.metadata, old.metadata), ...validateDeploymentSpec(d)];
}
