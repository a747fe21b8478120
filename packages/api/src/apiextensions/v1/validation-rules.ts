/**
 * The checks a CRD's `x-kubernetes-validations` rules get when the CRD is written
 * (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
 * ValidateCustomResourceDefinitionOpenAPISchema): the rule's own fields (rule, message,
 * messageExpression, reason, fieldPath), then, when the schema is otherwise valid, what compiling
 * the rules says (compile errors, oldSelf where values cannot be correlated, estimated cost).
 * Compiling is the apiserver's (it owns the CEL environment): it is passed in as a
 * ValidationRuleCompiler.
 */
import { field, GoValue, path, type FieldErrorList } from "../../errors/field-error.ts";
import type { ExpressionError } from "../../admissionregistration/v1/validation.ts";
import { validFieldPath } from "./field-path.ts";
import type { JSONSchemaProps } from "./types.ts";

/** One entry of x-kubernetes-validations (apiextensions/v1 ValidationRule). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** What compiling one rule gave (apiserver/schema/cel/compilation.go CompilationResult). */
export interface RuleCompilation {
  error?: ExpressionError;
  messageExpressionError?: ExpressionError;
  /** The rule refers to `oldSelf`. */
  usesOldSelf: boolean;
  /** The rule's estimated worst-case cost for one evaluation, if estimated. */
  maxCost?: number;
  /** The messageExpression's estimated worst-case cost, if it has one. */
  messageExpressionMaxCost?: number;
  /** How many times the node could occur in the largest request, for a node under unbounded lists or maps. */
  maxCardinality?: number;
}

/** Compiles the rules of the schema node `schema` against its declared types. */
export type ValidationRuleCompiler = (schema: JSONSchemaProps, rules: readonly ValidationRule[]) => RuleCompilation[];

/** supportedValidationReason, sorted as sets.List prints them. */
const supportedReasons = ["FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"];
const newlines = /[\n\r]+/;

/** The rules of a node, as written. */
export const validationRules = (s: JSONSchemaProps): ValidationRule[] => (s["x-kubernetes-validations"] ?? []) as ValidationRule[];

/** The static checks of one node's rules (the loop over schema.XValidations before compiling). */
export function validateValidationRuleFields(s: JSONSchemaProps, at: string): FieldErrorList {
  const errs: FieldErrorList = [];
  validationRules(s).forEach((r, i) => {
    const p = path(`${at}.x-kubernetes-validations`, i);
    const rule = (r.rule ?? "").trim();
    const message = r.message ?? "";
    const trimmedMessage = message.trim();
    if (rule === "") errs.push(field.required(`${p}.rule`, "rule is not specified"));
    else if (message.length > 0 && trimmedMessage === "")
      errs.push(field.invalid(`${p}.message`, message, "message must be non-empty if specified"));
    else if (newlines.test(trimmedMessage)) errs.push(field.invalid(`${p}.message`, message, "message must not contain line breaks"));
    else if (newlines.test(rule) && trimmedMessage === "")
      errs.push(field.required(`${p}.message`, "message must be specified if rule contains line breaks"));
    if ((r.messageExpression ?? "").length > 0 && r.messageExpression!.trim() === "")
      errs.push(field.required(`${p}.messageExpression`, "messageExpression must be non-empty if specified"));
    if (r.reason !== undefined && !supportedReasons.includes(r.reason))
      errs.push(field.notSupported(`${p}.reason`, r.reason, supportedReasons));
    const fp = r.fieldPath ?? "";
    if (fp.length > 0 && fp.trim() === "") errs.push(field.invalid(`${p}.fieldPath`, fp, "fieldPath must be non-empty if specified"));
    if (newlines.test(fp)) errs.push(field.invalid(`${p}.fieldPath`, fp, "fieldPath must not contain line breaks"));
    if (fp.length > 0 && validFieldPath(fp, s) === undefined)
      errs.push(field.invalid(`${p}.fieldPath`, fp, "fieldPath must be a valid path"));
  });
  return errs;
}

/** Go's `%#v` of the internal apiextensions.ValidationRule, the bad value of a rule that does not compile. */
export function validationRuleValue(r: ValidationRule): GoValue {
  const ptr = (t: string, set: boolean): string => `(${t})(${set ? "0xc000000000" : "nil"})`;
  return new GoValue(
    `apiextensions.ValidationRule{Rule:${JSON.stringify(r.rule ?? "")}, Message:${JSON.stringify(r.message ?? "")}, ` +
      `MessageExpression:${JSON.stringify(r.messageExpression ?? "")}, ` +
      `Reason:${ptr("*apiextensions.FieldValueErrorReason", r.reason !== undefined)}, FieldPath:${JSON.stringify(r.fieldPath ?? "")}, ` +
      `OptionalOldSelf:${ptr("*bool", r.optionalOldSelf !== undefined)}}`,
  );
}
