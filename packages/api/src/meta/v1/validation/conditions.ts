/**
 * apimachinery pkg/apis/meta/v1/validation/validation.go `ValidateConditions` and
 * `ValidateCondition`: the rules every `[]metav1.Condition` status follows.
 */
import { field, path, type FieldErrorList } from "../../../errors/index.ts";
import type { Condition } from "../condition.ts";
import { validateLabelName } from "./labels.ts";
import { regexError } from "./name.ts";

const validConditionStatuses = ["False", "True", "Unknown"];
const maxReasonLen = 1 * 1024;
const maxMessageLen = 32 * 1024;

const conditionReasonFmt = "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?";
const conditionReasonRe = new RegExp(`^${conditionReasonFmt}$`);
const conditionReasonErrMsg =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";

/** `isValidConditionReason`. */
function isValidConditionReason(value: string): string[] {
  if (conditionReasonRe.test(value)) return [];
  return [regexError(conditionReasonErrMsg, conditionReasonFmt, "my_name", "MY_NAME", "MyName", "ReasonA,ReasonB", "ReasonA:ReasonB")];
}

/** `ValidateCondition`. */
export function validateCondition(c: Condition, fldPath: string): FieldErrorList {
  const errs = validateLabelName(c.type, path(fldPath, "type"));
  if (!validConditionStatuses.includes(c.status)) errs.push(field.notSupported(path(fldPath, "status"), c.status, validConditionStatuses));
  const gen = c.observedGeneration ?? 0;
  if (gen < 0) errs.push(field.invalid(path(fldPath, "observedGeneration"), gen, "must be greater than or equal to zero"));
  if (c.lastTransitionTime === null) errs.push(field.required(path(fldPath, "lastTransitionTime"), "must be set"));
  if (c.reason.length === 0) errs.push(field.required(path(fldPath, "reason"), "must be set"));
  else {
    for (const m of isValidConditionReason(c.reason)) errs.push(field.invalid(path(fldPath, "reason"), c.reason, m));
    if (c.reason.length > maxReasonLen) errs.push(field.tooLong(path(fldPath, "reason"), c.reason, maxReasonLen));
  }
  if (c.message.length > maxMessageLen) errs.push(field.tooLong(path(fldPath, "message"), c.message, maxMessageLen));
  return errs;
}

/** `ValidateConditions`: each condition, and a type given twice is a Duplicate at its second index. */
export function validateMetaConditions(conditions: readonly Condition[] | undefined, fldPath: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    if (seen.has(c.type)) errs.push(field.duplicate(path(fldPath, i, "type"), c.type));
    else seen.add(c.type);
    errs.push(...validateCondition(c, path(fldPath, i)));
  });
  return errs;
}
