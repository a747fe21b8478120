/**
 * ValidatingAdmissionPolicy and binding validation (pkg/apis/admissionregistration/validation/validation.go
 * ValidateValidatingAdmissionPolicy, ValidateValidatingAdmissionPolicyBinding), on defaulted objects.
 * Expressions are compiled by the caller's `compile` (the apiserver's CEL), as upstream's
 * validation compiles them; without it only their presence is checked.
 */
import { field, path, type FieldErrorList } from "../../errors/index.ts";
import { validateLabelSelector } from "../../meta/v1/validation/label-selector.ts";
import { validateQualifiedName } from "../../meta/v1/validation/labels.ts";
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName } from "../../meta/v1/validation/name.ts";
import { validateObjectMeta } from "../../meta/v1/validation/object-meta.ts";
import type { ParamKind, ParamRef, Validation, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from "./types.ts";
import { goTypedSlice, validateMatchResources } from "./validation-rules.ts";

/** A CEL compile error as apiservercel.Error carries it. */
export interface ExpressionError {
  type: "Required" | "Invalid" | "Internal";
  detail: string;
}

/**
 * Compiles one expression; `undefined` when it compiles. `hasAuthorizer: false` compiles without
 * the `authorizer` variable (upstream's OptionalVariableDeclarations, false for messageExpressions).
 */
export type ExpressionCompiler = (expression: string, declarations?: { hasAuthorizer: boolean }) => ExpressionError | undefined;

const supportedFailurePolicies = ["Fail", "Ignore"];
const supportedReasons = ["Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"];
const validationActions = ["Audit", "Deny", "Warn"];
const maxAuditAnnotations = 20;
const celIdentifier = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

/** convertCELErrorToValidationError. */
function expressionErrors(
  compile: ExpressionCompiler | undefined,
  expression: string,
  fld: string,
  declarations?: { hasAuthorizer: boolean },
): FieldErrorList {
  const err = compile?.(expression, declarations);
  if (err === undefined) return [];
  if (err.type === "Required") return [field.required(fld, err.detail)];
  if (err.type === "Invalid") return [field.invalid(fld, expression, err.detail)];
  return [field.internal(fld, err.detail)];
}

function validateParamKind(k: ParamKind, fld: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const av = k.apiVersion ?? "";
  if (av === "") errs.push(field.required(path(fld, "apiVersion")));
  else if (av.split("/").length > 2) errs.push(field.invalid(path(fld, "apiVersion"), av, `unexpected GroupVersion string: ${av}`));
  else {
    const [group, version] = av.includes("/") ? (av.split("/") as [string, string]) : ["", av];
    if (group !== "" && isDNS1123Subdomain(group).length > 0)
      errs.push(field.invalid(path(fld, "apiVersion"), group, isDNS1123Subdomain(group).join(",")));
    if (version === "") errs.push(field.invalid(path(fld, "apiVersion"), av, "version must be specified"));
    else if (isDNS1035Label(version).length > 0)
      errs.push(field.invalid(path(fld, "apiVersion"), version, isDNS1035Label(version).join(",")));
  }
  const kind = k.kind ?? "";
  if (kind === "") errs.push(field.required(path(fld, "kind")));
  else if (isDNS1035Label(kind.toLowerCase()).length > 0)
    errs.push(
      field.invalid(
        path(fld, "kind"),
        kind,
        `may have mixed case, but should otherwise match: ${isDNS1035Label(kind.toLowerCase()).join(",")}`,
      ),
    );
  return errs;
}

function validateValidation(v: Validation, compile: ExpressionCompiler | undefined, fld: string): FieldErrorList {
  const errs: FieldErrorList = [];
  if (v.expression.trim() === "") errs.push(field.required(path(fld, "expression"), "expression is not specified"));
  else errs.push(...expressionErrors(compile, v.expression, path(fld, "expression")));
  const me = v.messageExpression ?? "";
  if (me.length > 0 && me.trim() === "") errs.push(field.invalid(path(fld, "messageExpression"), me, "must be non-empty if specified"));
  // validateMessageExpression: HasAuthorizer false.
  else if (me.trim() !== "") errs.push(...expressionErrors(compile, me, path(fld, "messageExpression"), { hasAuthorizer: false }));
  const msg = v.message ?? "";
  if (msg.length > 0 && msg.trim() === "") errs.push(field.invalid(path(fld, "message"), msg, "message must be non-empty if specified"));
  else if (/[\n\r]/.test(msg.trim())) errs.push(field.invalid(path(fld, "message"), msg, "message must not contain line breaks"));
  if (v.reason !== undefined && !supportedReasons.includes(v.reason))
    errs.push(field.notSupported(path(fld, "reason"), v.reason, supportedReasons));
  return errs;
}

/** ValidateValidatingAdmissionPolicy (create). */
export function validateValidatingAdmissionPolicy(p: ValidatingAdmissionPolicy, compile?: ExpressionCompiler): FieldErrorList {
  const errs = validateObjectMeta(p.metadata, { namespaced: false });
  const s = p.spec;
  if (s.failurePolicy === undefined) errs.push(field.required("spec.failurePolicy"));
  else if (!supportedFailurePolicies.includes(s.failurePolicy))
    errs.push(field.notSupported("spec.failurePolicy", s.failurePolicy, supportedFailurePolicies));
  if (s.paramKind) errs.push(...validateParamKind(s.paramKind, "spec.paramKind"));
  if (s.matchConstraints === undefined) errs.push(field.required("spec.matchConstraints"));
  else {
    errs.push(...validateMatchResources(s.matchConstraints, "spec.matchConstraints"));
    if ((s.matchConstraints.resourceRules ?? []).length === 0) errs.push(field.required("spec.matchConstraints.resourceRules"));
  }
  const conditionNames = new Set<string>();
  const conditions = s.matchConditions ?? [];
  if (conditions.length > 64) errs.push(field.tooMany("spec.matchConditions", conditions.length, 64));
  conditions.forEach((c, i) => {
    const fld = path("spec.matchConditions", i);
    if (c.expression.trim() === "") errs.push(field.required(path(fld, "expression")));
    else errs.push(...expressionErrors(compile, c.expression.trim(), path(fld, "expression")));
    if (c.name === "") errs.push(field.required(path(fld, "name")));
    else errs.push(...validateQualifiedName(c.name, path(fld, "name")));
    if (c.name !== "" && conditionNames.has(c.name)) errs.push(field.duplicate(path(fld, "name"), c.name));
    conditionNames.add(c.name);
  });
  (s.variables ?? []).forEach((v, i) => {
    const fld = path("spec.variables", i);
    if (v.name.trim() === "") errs.push(field.required(path(fld, "name"), "name is not specified"));
    else if (!celIdentifier.test(v.name)) errs.push(field.invalid(path(fld, "name"), v.name, "name is not a valid CEL identifier"));
    if (v.expression.trim() === "") errs.push(field.required(path(fld, "expression"), "expression is not specified"));
    else errs.push(...expressionErrors(compile, v.expression, path(fld, "expression")));
  });
  const validations = s.validations ?? [];
  const annotations = s.auditAnnotations ?? [];
  if (validations.length === 0 && annotations.length === 0) {
    errs.push(field.required("spec.validations", "validations or auditAnnotations must contain at least one item"));
    errs.push(field.required("spec.auditAnnotations", "validations or auditAnnotations must contain at least one item"));
    return errs;
  }
  validations.forEach((v, i) => errs.push(...validateValidation(v, compile, path("spec.validations", i))));
  if (annotations.length > maxAuditAnnotations)
    errs.push(field.invalid("spec.auditAnnotations", annotations, `must not have more than ${maxAuditAnnotations} auditAnnotations`));
  const keys = new Set<string>();
  annotations.forEach((a, i) => {
    const fld = path("spec.auditAnnotations", i);
    if (a.valueExpression.trim() === "") errs.push(field.required(path(fld, "valueExpression"), "valueExpression is not specified"));
    else errs.push(...expressionErrors(compile, a.valueExpression, path(fld, "valueExpression")));
    if (keys.has(a.key)) errs.push(field.duplicate(path(fld, "key"), a.key));
    keys.add(a.key);
  });
  return errs;
}

function validateParamRef(r: ParamRef | undefined, fld: string): FieldErrorList {
  if (r === undefined) return [];
  const errs: FieldErrorList = [];
  const name = r.name ?? "";
  if (name !== "") {
    for (const m of isValidPathSegmentName(name)) errs.push(field.invalid(path(fld, "name"), name, m));
    if (r.selector !== undefined) errs.push(field.forbidden(path(fld, "name"), "name and selector are mutually exclusive"));
  }
  const ns = r.namespace ?? "";
  for (const m of ns !== "" ? isValidPathSegmentName(ns) : []) errs.push(field.invalid(path(fld, "namespace"), ns, m));
  if (r.selector !== undefined) {
    errs.push(...validateLabelSelector(r.selector, {}, path(fld, "selector")));
    if (name !== "") errs.push(field.forbidden(path(fld, "selector"), "name and selector are mutually exclusive"));
  }
  if (name === "" && r.selector === undefined) errs.push(field.required(fld, "one of name or selector must be specified"));
  const action = r.parameterNotFoundAction ?? "";
  if (action === "") errs.push(field.required(path(fld, "parameterNotFoundAction")));
  else if (action !== "Deny" && action !== "Allow")
    errs.push(field.notSupported(path(fld, "parameterNotFoundAction"), action, ["Deny", "Allow"]));
  return errs;
}

function validateValidationActions(actions: readonly string[], fld: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!validationActions.includes(a)) errs.push(field.notSupported(path(fld, i), a, validationActions));
    if (seen.has(a)) errs.push(field.duplicate(path(fld, i), a));
    seen.add(a);
  });
  if (seen.has("Deny") && seen.has("Warn"))
    errs.push(
      field.invalid(
        fld,
        goTypedSlice("admissionregistration.ValidationAction", actions),
        "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
      ),
    );
  if (seen.size === 0) errs.push(field.required(fld, "at least one validation action is required"));
  return errs;
}

/** ValidateValidatingAdmissionPolicyBinding (create). The "matchResouces" path is upstream's own spelling. */
export function validateValidatingAdmissionPolicyBinding(b: ValidatingAdmissionPolicyBinding): FieldErrorList {
  const errs = validateObjectMeta(b.metadata, { namespaced: false });
  const policyName = b.spec.policyName ?? "";
  if (policyName === "") errs.push(field.required("spec.policyName"));
  else for (const m of isDNS1123Subdomain(policyName)) errs.push(field.invalid("spec.policyName", policyName, m));
  errs.push(...validateParamRef(b.spec.paramRef, "spec.paramRef"));
  errs.push(...validateMatchResources(b.spec.matchResources, "spec.matchResouces"));
  errs.push(...validateValidationActions(b.spec.validationActions ?? [], "spec.validationActions"));
  return errs;
}
