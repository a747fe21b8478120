/**
 * policy validation (pkg/apis/policy/validation/validation.go): ValidatePodDisruptionBudget and
 * ValidatePodDisruptionBudgetStatusUpdate, with upstream's field paths and messages.
 */
import { field, GoValue, path, type FieldErrorList } from "../../errors/index.ts";
import type { IntOrString } from "../../core/v1/service.ts";
import { validatePositiveIntOrPercent, validateNonnegativeField } from "../../apps/v1/validation.ts";
import { validateMetaConditions } from "../../meta/v1/validation/conditions.ts";
import { validateLabelSelector } from "../../meta/v1/validation/label-selector.ts";
import { isValidPathSegmentName } from "../../meta/v1/validation/name.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../meta/v1/validation/object-meta.ts";
import {
  alwaysAllow,
  ifHealthyBudget,
  type PodDisruptionBudget,
  type PodDisruptionBudgetSpec,
  type PodDisruptionBudgetStatus,
} from "./types.ts";

/** `supportedUnhealthyPodEvictionPolicies`, as its sorted List(). */
const supportedUnhealthyPodEvictionPolicies = [alwaysAllow, ifHealthyBudget];

/** PodDisruptionBudgetValidationOptions. */
export interface PodDisruptionBudgetValidationOptions {
  allowInvalidLabelValueInSelector?: boolean;
}

/** appsvalidation `IsNotMoreThan100Percent`: the value is reported as its String(). */
export function isNotMoreThan100Percent(v: IntOrString, fldPath: string): FieldErrorList {
  if (typeof v !== "string" || !/^[0-9]+%$/.test(v)) return [];
  return Number.parseInt(v.slice(0, -1), 10) <= 100 ? [] : [field.invalid(fldPath, v, "must not be greater than 100%")];
}

/** `%#v` of a policy.PodDisruptionBudgetSpec (a set pointer prints an address). */
function goPodDisruptionBudgetSpec(spec: PodDisruptionBudgetSpec): GoValue {
  const ptr = (set: boolean, type: string) => `(*${type})(${set ? "0xc000000000" : "nil"})`;
  return new GoValue(
    `policy.PodDisruptionBudgetSpec{MinAvailable:${ptr(spec.minAvailable !== undefined, "intstr.IntOrString")}, ` +
      `Selector:${ptr(spec.selector !== undefined, "v1.LabelSelector")}, ` +
      `MaxUnavailable:${ptr(spec.maxUnavailable !== undefined, "intstr.IntOrString")}, ` +
      `UnhealthyPodEvictionPolicy:${ptr(spec.unhealthyPodEvictionPolicy !== undefined, "policy.UnhealthyPodEvictionPolicyType")}}`,
  );
}

/** `ValidatePodDisruptionBudgetSpec`. */
export function validatePodDisruptionBudgetSpec(
  spec: PodDisruptionBudgetSpec,
  opts: PodDisruptionBudgetValidationOptions,
  fldPath: string,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined)
    errs.push(field.invalid(fldPath, goPodDisruptionBudgetSpec(spec), "minAvailable and maxUnavailable cannot be both set"));
  for (const [name, v] of [
    ["minAvailable", spec.minAvailable],
    ["maxUnavailable", spec.maxUnavailable],
  ] as const) {
    if (v === undefined) continue;
    errs.push(...validatePositiveIntOrPercent(v, path(fldPath, name)), ...isNotMoreThan100Percent(v, path(fldPath, name)));
  }
  errs.push(
    ...validateLabelSelector(
      spec.selector,
      { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector ?? false },
      path(fldPath, "selector"),
    ),
  );
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !supportedUnhealthyPodEvictionPolicies.includes(policy))
    errs.push(field.notSupported(path(fldPath, "unhealthyPodEvictionPolicy"), policy, supportedUnhealthyPodEvictionPolicies));
  return errs;
}

/** `ValidatePodDisruptionBudget`. */
export function validatePodDisruptionBudget(pdb: PodDisruptionBudget, opts: PodDisruptionBudgetValidationOptions = {}): FieldErrorList {
  return validatePodDisruptionBudgetSpec(pdb.spec, opts, "spec");
}

/**
 * What the PodDisruptionBudget strategy's Validate reports with rest.BeforeCreate's object-meta
 * check after it (names are path segments: ValidateObjectMetaAccessor with ValidatePathSegmentName).
 */
export function validatePodDisruptionBudgetCreate(pdb: PodDisruptionBudget): FieldErrorList {
  return [
    ...validatePodDisruptionBudget(pdb, { allowInvalidLabelValueInSelector: false }),
    ...validateObjectMeta(pdb.metadata, { namespaced: true, nameValidator: (n) => isValidPathSegmentName(n) }),
  ];
}

/**
 * rest.BeforeUpdate's common metadata checks, then the strategy's ValidateUpdate: a selector whose
 * stored form already had an invalid label value keeps being accepted
 * (`hasInvalidLabelValueInLabelSelector`).
 */
export function validatePodDisruptionBudgetUpdate(pdb: PodDisruptionBudget, old: PodDisruptionBudget): FieldErrorList {
  const allowInvalid = validateLabelSelector(old.spec.selector, { allowInvalidLabelValueInSelector: false }, "").length > 0;
  return [
    ...validateObjectMeta(pdb.metadata, { namespaced: true, nameValidator: (n) => isValidPathSegmentName(n) }),
    ...validateObjectMetaUpdate(pdb.metadata, old.metadata),
    ...validatePodDisruptionBudget(pdb, { allowInvalidLabelValueInSelector: allowInvalid }),
  ];
}

/** `ValidatePodDisruptionBudgetStatusUpdate` for policy/v1 (v1beta1 stops after the conditions). */
export function validatePodDisruptionBudgetStatusUpdate(
  status: PodDisruptionBudgetStatus | undefined,
  _old: PodDisruptionBudgetStatus | undefined,
  fldPath = "status",
): FieldErrorList {
  const s = status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  return [
    ...validateMetaConditions(s.conditions, path(fldPath, "conditions")),
    ...validateNonnegativeField(s.disruptionsAllowed, path(fldPath, "disruptionsAllowed")),
    ...validateNonnegativeField(s.currentHealthy, path(fldPath, "currentHealthy")),
    ...validateNonnegativeField(s.desiredHealthy, path(fldPath, "desiredHealthy")),
    ...validateNonnegativeField(s.expectedPods, path(fldPath, "expectedPods")),
  ];
}
