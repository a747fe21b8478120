/**
 * DaemonSet validation (pkg/apis/apps/validation/validation.go ValidateDaemonSet,
 * ValidateDaemonSetSpec, ValidateDaemonSetUpdateStrategy, ValidateRollingUpdateDaemonSet,
 * ValidateDaemonSetUpdate, ValidateDaemonSetStatusUpdate), with upstream's messages and paths.
 */
import { field, GoValue, path, type FieldErrorList } from "../../errors/index.ts";
import { labelSelectorAsSelector } from "../../meta/v1/label-selector-helpers.ts";
import { validateLabelSelector } from "../../meta/v1/validation/label-selector.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../meta/v1/validation/object-meta.ts";
import type { IntOrString } from "../../core/v1/service.ts";
import { onDeleteDaemonSetStrategyType, rollingUpdateDaemonSetStrategyType } from "./daemonset-defaults.ts";
import type { DaemonSet, DaemonSetSpec, DaemonSetStatus, DaemonSetUpdateStrategy, RollingUpdateDaemonSet } from "./daemonset-types.ts";
import { goIntOrString, goLabelSelector, goStringMap } from "./go-values.ts";
import { validateNonnegativeField, validatePodTemplateSpec, validatePositiveIntOrPercent } from "./validation.ts";

const percentRegexp = /^[0-9]+%$/;

/** `getIntOrPercentValue`: a percent's number, an int's value, IntValue (Atoi, 0 on error) of another string. */
function intOrPercentValue(v: IntOrString | undefined): number {
  if (typeof v === "number") return v;
  if (v === undefined) return 0;
  if (percentRegexp.test(v)) return Number.parseInt(v.slice(0, -1), 10);
  return /^[+-]?\d+$/.test(v) ? Number.parseInt(v, 10) : 0;
}

/** `IsNotMoreThan100Percent`. */
function isNotMoreThan100Percent(v: IntOrString | undefined, fldPath: string): FieldErrorList {
  if (typeof v !== "string" || !percentRegexp.test(v) || Number.parseInt(v.slice(0, -1), 10) <= 100) return [];
  return [field.invalid(fldPath, goIntOrString(v), "must not be greater than 100%")];
}

/** `ValidateRollingUpdateDaemonSet`: exactly one of maxUnavailable and maxSurge is non-zero. */
export function validateRollingUpdateDaemonSet(ru: RollingUpdateDaemonSet, fldPath: string): FieldErrorList {
  const mu = path(fldPath, "maxUnavailable");
  const ms = path(fldPath, "maxSurge");
  const errs = [
    ...validatePositiveIntOrPercent(ru.maxUnavailable, mu),
    ...validatePositiveIntOrPercent(ru.maxSurge, ms),
    ...isNotMoreThan100Percent(ru.maxUnavailable, mu),
    ...isNotMoreThan100Percent(ru.maxSurge, ms),
  ];
  const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
  if (hasUnavailable && hasSurge)
    errs.push(field.invalid(ms, goIntOrString(ru.maxSurge), "may not be set when maxUnavailable is non-zero"));
  else if (!hasUnavailable && !hasSurge) errs.push(field.required(mu, "cannot be 0 when maxSurge is 0"));
  return errs;
}

/** `%#v` of an apps.DaemonSetUpdateStrategy. */
function goDaemonSetStrategy(s: DaemonSetUpdateStrategy): GoValue {
  const ru = s.rollingUpdate === undefined ? "(*apps.RollingUpdateDaemonSet)(nil)" : "(*apps.RollingUpdateDaemonSet)(0xc000000000)";
  return new GoValue(`apps.DaemonSetUpdateStrategy{Type:${JSON.stringify(s.type ?? "")}, RollingUpdate:${ru}}`);
}

/** `ValidateDaemonSetUpdateStrategy`. */
export function validateDaemonSetUpdateStrategy(strategy: DaemonSetUpdateStrategy, fldPath: string): FieldErrorList {
  switch (strategy.type) {
    case onDeleteDaemonSetStrategyType:
      return [];
    case rollingUpdateDaemonSetStrategyType:
      return strategy.rollingUpdate === undefined
        ? [field.required(path(fldPath, "rollingUpdate"))]
        : validateRollingUpdateDaemonSet(strategy.rollingUpdate, path(fldPath, "rollingUpdate"));
    default:
      return [
        field.notSupported(fldPath, goDaemonSetStrategy(strategy), [rollingUpdateDaemonSetStrategyType, onDeleteDaemonSetStrategyType]),
      ];
  }
}

/** `ValidateDaemonSetSpec`: the selector matches the template, which is validated as a pod template. */
export function validateDaemonSetSpec(spec: DaemonSetSpec, fldPath = "spec"): FieldErrorList {
  const errs: FieldErrorList = [];
  const selector = spec.selector;
  if (selector !== undefined)
    errs.push(...validateLabelSelector(selector, { allowInvalidLabelValueInSelector: false }, path(fldPath, "selector")));
  let matches = false;
  let parsed = true;
  try {
    matches = labelSelectorAsSelector(selector)(spec.template.metadata.labels ?? {});
  } catch {
    parsed = false;
  }
  if (parsed && !matches)
    errs.push(
      field.invalid(
        path(fldPath, "template", "metadata", "labels"),
        new GoValue(goStringMap(spec.template.metadata.labels)),
        "`selector` does not match template `labels`",
      ),
    );
  if (selector !== undefined && Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0)
    errs.push(field.invalid(path(fldPath, "selector"), goLabelSelector(selector), "empty selector is invalid for daemonset"));
  errs.push(...validatePodTemplateSpec(spec.template, path(fldPath, "template")));
  const podSpec = spec.template.spec as Record<string, unknown>;
  const restartPolicy = podSpec["restartPolicy"] ?? "";
  if (restartPolicy !== "Always")
    errs.push(field.notSupported(path(fldPath, "template", "spec", "restartPolicy"), restartPolicy, ["Always"]));
  if (podSpec["activeDeadlineSeconds"] !== undefined && podSpec["activeDeadlineSeconds"] !== null)
    errs.push(
      field.forbidden(path(fldPath, "template", "spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in DaemonSet is not Supported"),
    );
  errs.push(...validateNonnegativeField(spec.minReadySeconds ?? 0, path(fldPath, "minReadySeconds")));
  errs.push(...validateDaemonSetUpdateStrategy(spec.updateStrategy ?? {}, path(fldPath, "updateStrategy")));
  if (spec.revisionHistoryLimit !== undefined)
    errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, path(fldPath, "revisionHistoryLimit")));
  return errs;
}

/** `ValidateDaemonSet`: names are DNS subdomains. */
export function validateDaemonSet(ds: DaemonSet): FieldErrorList {
  return [...validateObjectMeta(ds.metadata, { namespaced: true }), ...validateDaemonSetSpec(ds.spec)];
}

/** `ValidateDaemonSetUpdate` (the templateGeneration rules hold by construction: the strategy sets it). */
export function validateDaemonSetUpdate(ds: DaemonSet, old: DaemonSet): FieldErrorList {
  return [...validateObjectMetaUpdate(ds.metadata, old.metadata), ...validateDaemonSetSpec(ds.spec)];
}

/** `validateDaemonSetStatus`. */
export function validateDaemonSetStatus(status: DaemonSetStatus | undefined, fldPath = "status"): FieldErrorList {
  const s = {
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    desiredNumberScheduled: 0,
    numberReady: 0,
    observedGeneration: 0,
    updatedNumberScheduled: 0,
    numberAvailable: 0,
    numberUnavailable: 0,
    ...status,
  };
  const errs: FieldErrorList = [];
  for (const f of [
    "currentNumberScheduled",
    "numberMisscheduled",
    "desiredNumberScheduled",
    "numberReady",
    "observedGeneration",
    "updatedNumberScheduled",
    "numberAvailable",
    "numberUnavailable",
  ] as const)
    errs.push(...validateNonnegativeField(s[f], path(fldPath, f)));
  if (s.collisionCount !== undefined) errs.push(...validateNonnegativeField(s.collisionCount, path(fldPath, "collisionCount")));
  return errs;
}

/** `ValidateDaemonSetStatusUpdate`: the status rules, and collisionCount never decremented. */
export function validateDaemonSetStatusUpdate(ds: DaemonSet, old: DaemonSet): FieldErrorList {
  const errs = [...validateObjectMetaUpdate(ds.metadata, old.metadata), ...validateDaemonSetStatus(ds.status)];
  const now = ds.status?.collisionCount;
  const before = old.status?.collisionCount;
  if (before !== undefined && (now === undefined || now < before))
    errs.push(field.invalid("status.collisionCount", now ?? 0, "cannot be decremented"));
  return errs;
}
