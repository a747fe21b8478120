/**
 * metav1.LabelSelector validation (apimachinery pkg/apis/meta/v1/validation/validation.go
 * ValidateLabelSelector, ValidateLabelSelectorRequirement), with upstream's messages and paths.
 */
import { field, path, type FieldErrorList } from "../../../errors/index.ts";
import type { LabelSelector, LabelSelectorRequirement } from "../label-selector.ts";
import { isValidLabelValue, validateLabelName, validateLabels } from "./labels.ts";

/** LabelSelectorValidationOptions. */
export interface LabelSelectorValidationOptions {
  /** Skip the label-value check of matchExpressions values (kept for existing invalid data). */
  allowInvalidLabelValueInSelector?: boolean;
  /**
   * Let an operator this server does not know pass (the access reviews: a newer client's
   * requirement is then ignored when the review is evaluated, which only broadens the check).
   */
  allowUnknownOperatorInRequirement?: boolean;
}

/** ValidateLabelSelectorRequirement: operator and values agree, the key is a label name, values are label values. */
export function validateLabelSelectorRequirement(
  sr: LabelSelectorRequirement,
  opts: LabelSelectorValidationOptions,
  fldPath: string,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const values = sr.values ?? [];
  errs.push(...validateRequirementOperator(sr.operator, values, opts, fldPath));
  errs.push(...validateLabelName(sr.key, path(fldPath, "key")));
  if (!opts.allowInvalidLabelValueInSelector) {
    values.forEach((v, i) => errs.push(...isValidLabelValue(v).map((m) => field.invalid(path(fldPath, "values", i), v, m))));
  }
  return errs;
}

/** ValidateLabelSelector: matchLabels as labels, each matchExpressions requirement. A missing selector is valid. */
export function validateLabelSelector(
  ps: LabelSelector | null | undefined,
  opts: LabelSelectorValidationOptions,
  fldPath: string,
): FieldErrorList {
  if (ps === null || ps === undefined) return [];
  const errs = validateLabels(ps.matchLabels, path(fldPath, "matchLabels"));
  (ps.matchExpressions ?? []).forEach((expr, i) =>
    errs.push(...validateLabelSelectorRequirement(expr, opts, path(fldPath, "matchExpressions", i))),
  );
  return errs;
}

/**
 * The operator and values check that ValidateLabelSelectorRequirement and
 * ValidateFieldSelectorRequirement share: values for In/NotIn, none for Exists/DoesNotExist, and
 * no other operator unless `allowUnknownOperatorInRequirement`.
 */
export function validateRequirementOperator(
  operator: string,
  values: readonly string[],
  opts: { allowUnknownOperatorInRequirement?: boolean },
  fldPath: string,
): FieldErrorList {
  const errs: FieldErrorList = [];
  switch (operator) {
    case "In":
    case "NotIn":
      if (values.length === 0) errs.push(field.required(path(fldPath, "values"), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case "Exists":
    case "DoesNotExist":
      if (values.length > 0)
        errs.push(field.forbidden(path(fldPath, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      if (!opts.allowUnknownOperatorInRequirement)
        errs.push(field.invalid(path(fldPath, "operator"), operator, "not a valid selector operator"));
  }
  return errs;
}
