/**
 * metav1.FieldSelectorRequirement validation (apimachinery pkg/apis/meta/v1/validation/validation.go
 * ValidateFieldSelectorRequirement), with upstream's messages and paths.
 */
import { field, path, type FieldErrorList } from "../../../errors/index.ts";

/** A field selector requirement as the access reviews carry it (metav1.FieldSelectorRequirement). */
export interface FieldSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

/** FieldSelectorValidationOptions. */
export interface FieldSelectorValidationOptions {
  /** Let an operator this server does not know pass (the access reviews, for newer clients). */
  allowUnknownOperatorInRequirement?: boolean;
}

/** ValidateFieldSelectorRequirement: a key, and values as the operator wants them. */
export function validateFieldSelectorRequirement(
  requirement: FieldSelectorRequirement,
  opts: FieldSelectorValidationOptions,
  fldPath: string,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if ((requirement.key ?? "") === "") errs.push(field.required(path(fldPath, "key"), "must be specified"));
  const values = requirement.values ?? [];
  switch (requirement.operator) {
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
        errs.push(field.invalid(path(fldPath, "operator"), requirement.operator, "not a valid selector operator"));
  }
  return errs;
}
