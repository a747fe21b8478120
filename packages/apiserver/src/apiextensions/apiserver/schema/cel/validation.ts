/**
 * x-kubernetes-validations (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go
 * Validator.Validate): each rule runs with `self` bound to the value at its schema node and,
 * for transition rules, `oldSelf` to the correlated old value; a rule that is not true fails
 * with its message, messageExpression or `failed rule: <rule>`, at the node's path (plus the
 * rule's fieldPath), as the field error its reason names. All rules of a request share
 * RuntimeCELCostBudget. Every value is validated, but a failure of a rule without `oldSelf` on a
 * value unchanged from its correlated old value is dropped (ratcheting); compile errors, cost
 * errors and transition rules are never ratcheted.
 */
import { field, fieldErrorString, type FieldError, type FieldErrorList } from "@servicenet/api";
import { validationRules, type JSONSchemaProps, type ValidationRule } from "@servicenet/api/apiextensions/v1";
import {
  CELError,
  correlateField,
  correlateListItem,
  correlatedDeepEqual,
  costLimitExceededMessage,
  fromCEL,
  runtimeCELCostBudget,
  toCELOptional,
  type CostBudget,
  type Program,
} from "../../../../apiserver/cel/index.ts";
import { compileRule } from "./compilation.ts";

interface CompiledRule {
  rule: ValidationRule;
  program?: Program;
  message?: Program;
  transition: boolean;
}

const compiledBySchema = new WeakMap<JSONSchemaProps, CompiledRule[]>();

/** ruleErrorString: the message, or else the rule. */
const ruleErrorString = (r: ValidationRule): string => (r.message ? r.message.trim() : r.rule.trim());

/** ruleMessageOrDefault. */
const ruleMessageOrDefault = (r: ValidationRule): string => (r.message ? r.message.trim() : `failed rule: ${ruleErrorString(r)}`);

function compiled(s: JSONSchemaProps): CompiledRule[] {
  let out = compiledBySchema.get(s);
  if (out === undefined) {
    out = validationRules(s).map((rule) => {
      const c = compileRule(rule);
      return { rule, program: c.program, message: c.messageExpression, transition: c.usesOldSelf };
    });
    compiledBySchema.set(s, out);
  }
  return out;
}

/** A rule's fieldPath (`.spec.x`, `['a.b']`) appended to the node's path. */
function withFieldPath(at: string, fieldPath: string | undefined): string {
  if (!fieldPath) return at;
  const segs = [...fieldPath.matchAll(/\.([^.[\]]+)|\['([^']*)'\]|\[(\d+)\]/g)].map((m) =>
    m[1] !== undefined ? `.${m[1]}` : m[2] !== undefined ? `[${m[2]}]` : `[${m[3]}]`,
  );
  const tail = segs.join("");
  if (at === "") return tail.replace(/^\./, "");
  return `${at}${tail}`;
}

/** fieldErrorForReason. */
function fieldErrorForReason(at: string, type: string, detail: string, reason: string | undefined): FieldError {
  if (reason === "FieldValueForbidden") return field.forbidden(at, detail);
  if (reason === "FieldValueRequired") return field.required(at, detail);
  if (reason === "FieldValueDuplicate") return field.duplicate(at, type);
  return field.invalid(at, type, detail);
}

const nilPath = "<nil>";
const outOfBudget = "validation failed due to running out of cost budget, no further validation rules will be run";

interface Walk {
  budget: CostBudget;
  errs: FieldErrorList;
  /** Where ratcheted failures go (upstream: warnings of the request). */
  warnings?: string[];
  exhausted: boolean;
}

function evalRules(s: JSONSchemaProps, at: string, self: unknown, old: { value: unknown } | undefined, w: Walk): void {
  const type = s.type ?? "";
  const path = at === "" ? nilPath : at;
  // ratchetingOptions.shouldRatchetError: the value is correlated with an old one and unchanged.
  const unchanged = old !== undefined && correlatedDeepEqual(s, old.value, self);
  for (const c of compiled(s)) {
    if (w.exhausted) return;
    if (c.transition && old === undefined && c.rule.optionalOldSelf !== true) continue;
    if (c.program === undefined) {
      w.errs.push(field.invalid(path, type, `rule compile error: ${ruleErrorString(c.rule)}`));
      continue;
    }
    // validateExpressions' addErr: a ratcheted failure is a warning.
    const addErr = (e: FieldError): void => {
      if (c.transition || !unchanged) w.errs.push(e);
      else w.warnings?.push(fieldErrorString(e));
    };
    const oldSelf = c.rule.optionalOldSelf === true ? { oldSelf: toCELOptional(old) } : old !== undefined ? { oldSelf: old.value } : {};
    const activation = { self, ...oldSelf };
    let ok: unknown;
    try {
      ok = c.program.evaluate(activation, { budget: w.budget }).value;
    } catch (e) {
      const msg = e instanceof CELError ? e.detail : String(e);
      if (msg.startsWith(costLimitExceededMessage) || w.budget.remaining <= 0) {
        // validateExpressions: past the request's budget, or past the per-call limit, nothing more runs.
        const detail =
          w.budget.remaining <= 0
            ? outOfBudget
            : `'${costLimitExceededMessage}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(c.rule)}`;
        w.errs.push(field.invalid(path, type, detail));
        w.exhausted = true;
        return;
      }
      addErr(field.invalid(path, type, `${msg} evaluating rule: ${ruleErrorString(c.rule)}`));
      continue;
    }
    if (ok === true) continue;
    let detail = ruleMessageOrDefault(c.rule);
    if (c.message !== undefined) {
      try {
        const m = fromCEL(c.message.evaluate(activation, { budget: w.budget }).value);
        if (typeof m === "string" && m.trim() !== "" && !m.includes("\n")) detail = m.trim();
      } catch {
        // A failing messageExpression falls back to the message (upstream logs it).
      }
    }
    const target = withFieldPath(at, c.rule.fieldPath);
    addErr(fieldErrorForReason(target === "" ? nilPath : target, type, detail, c.rule.reason));
  }
}

/**
 * Whether a child of a node typed `type` reached through `via` has a CEL type: NewValidator
 * derives a child's DeclType from its parent's (ElemType, Fields), which only lists have for
 * items and only objects for properties (`items` under an object has none).
 */
const childTyped = (typed: boolean, type: string | undefined, via: "array" | "object"): boolean =>
  typed && (type === undefined || type === via);

const noDeclType = "rule compiler initialization error: Failed to convert to declType for CEL validation rules";

function walk(s: JSONSchemaProps | undefined, at: string, x: unknown, old: { value: unknown } | undefined, w: Walk, typed = true): void {
  // validateExpressions: only non-null values are validated (a nullable value's rules skip null).
  if (s === undefined || x === undefined || x === null || w.exhausted) return;
  // Compile: rules without a DeclType are a compilation error, reported on every value, never ratcheted.
  if (!typed && compiled(s).length > 0) w.errs.push(field.invalid(at === "" ? nilPath : at, s.type ?? "", noDeclType));
  else evalRules(s, at, x, old, w);
  if (Array.isArray(x)) {
    const items = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
    const t = childTyped(typed, s.type, "array");
    x.forEach((v, i) => walk(items, `${at}[${i}]`, v, correlateListItem(s, v, old?.value), w, t));
    return;
  }
  if (x === null || typeof x !== "object") return;
  const obj = x as Record<string, unknown>;
  const ap = typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
  const t = childTyped(typed, s.type, "object");
  for (const [k, v] of Object.entries(obj)) {
    const prop = s.properties?.[k];
    const child = correlateField(s, k, old?.value, obj);
    if (prop !== undefined) walk(prop, at === "" ? k : `${at}.${k}`, v, child, w, t);
    else if (ap !== undefined) walk(ap, `${at}[${k}]`, v, child, w, t);
  }
}

/** Runs every x-kubernetes-validations rule of `schema` over `obj` (and `old` on update, ratcheted failures going to `warnings`). */
export function validateCELRules(schema: JSONSchemaProps | undefined, obj: unknown, old?: unknown, warnings?: string[]): FieldErrorList {
  const w: Walk = { budget: { remaining: runtimeCELCostBudget }, errs: [], exhausted: false, warnings };
  walk(schema, "", obj, old === undefined ? undefined : { value: old }, w);
  return w.errs;
}
