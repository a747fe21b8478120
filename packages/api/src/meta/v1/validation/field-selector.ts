/**
 * metav1.FieldSelectorRequirement validation (apimachinery pkg/apis/meta/v1/validation/validation.go
 * ValidateFieldSelectorRequirement), with upstream's messages and paths.
 */
import { field, path, type FieldErrorList } from "../../../errors/index.ts";
import { validateRequirementOperator } from "./label-selector.ts";

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
  errs.push(...validateRequirementOperator(requirement.operator, requirement.values ?? [], opts, fldPath));
  return errs;
}
