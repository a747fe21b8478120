/**
 * Compiling a schema node's x-kubernetes-validations rules (apiextensions-apiserver
 * pkg/apiserver/schema/cel/compilation.go Compile and compileRule): each rule in an environment
 * declaring `self` and `oldSelf`, which must give a bool, and its messageExpression, which must
 * give a string. The same compilation serves the CRD write (its errors are reported) and the
 * custom objects' validation (its programs run).
 *
 * Rules run with `self` as `dyn` (the JSON values as read), and are also checked with `self`
 * declared as the schema's types (model/schemas.go), which is how cel-go finds `self.name + 1` on
 * a string or a field the schema does not have. Of the typed checker's verdicts only those cel-js
 * and cel-go agree on are reported: undefined fields, operators on scalars of mismatched types,
 * and a result of another type than bool or string.
 */
import type { JSONSchemaProps, RuleCompilation, ValidationRule, ValidationRuleCompiler } from "@servicenet/api/apiextensions/v1";
import {
  CELEnvironment,
  kubernetesLibrariesFor,
  trustedTypeError,
  type CELError,
  type CheckResult,
  type Library,
  type Program,
} from "../../../../apiserver/cel/index.ts";
import { schemaDeclType, type ObjectTypes } from "./model/schemas.ts";
import { estimateCost, maxCardinality, minSerializedSize } from "./cost.ts";

/** The variable a rule's value is bound to (compilation.go ScopedVarName). */
export const scopedVarName = "self";
/** The variable the old value is bound to in transition rules (compilation.go OldScopedVarName). */
export const oldScopedVarName = "oldSelf";

const untyped = (libraries: readonly Library[]) =>
  new CELEnvironment({ libraries, variables: { [scopedVarName]: "dyn", [oldScopedVarName]: "dyn" } });
const env = untyped(kubernetesLibrariesFor({ authorizeWithSelectors: true }));
let envWithoutSelectors: CELEnvironment | undefined;

/** One compiled rule: what the CRD write reports and what object validation runs. */
export interface CompilationResult extends RuleCompilation {
  program?: Program;
  messageExpression?: Program;
}

const invalid = (detail: string): RuleCompilation["error"] => ({ type: "Invalid", detail });

// `dyn` is accepted where cel-go wants bool or string: the checker only knows a `dyn` self's
// fields as `dyn`, and cel-go's schema-typed check of the same rule would accept it.
const gives = (p: Program | string | undefined, type: string): boolean => {
  const out = typeof p === "object" ? p.outputType : (p ?? "dyn");
  return out === type || out === "dyn";
};

/** The typed checker's error for `expression` that cel-go would give too, or the type it found. */
function typedCheck(typed: CELEnvironment | undefined, expression: string): CheckResult | undefined {
  if (typed === undefined) return undefined;
  const r = typed.check(expression);
  return r.error === undefined || trustedTypeError(r.error) ? r : undefined;
}

/**
 * compileRule: one rule and its messageExpression, checked against `typed` when given, their
 * worst-case costs estimated when the schema node is given.
 */
export function compileRule(rule: ValidationRule, typed?: CELEnvironment, schema?: JSONSchemaProps, base = env): CompilationResult {
  const out: CompilationResult = { usesOldSelf: false };
  // An empty rule is reported by the schema checks, not compiled.
  if ((rule.rule ?? "").trim() === "") return out;
  const r = base.compile(rule.rule);
  if (r.error !== undefined) return { ...out, error: errorOf(r.error) };
  const t = typedCheck(typed, rule.rule);
  if (t?.error !== undefined) return { ...out, error: errorOf(t.error) };
  if (!gives(r.program, "bool") || !gives(t?.type, "bool")) return { ...out, error: invalid("cel expression must evaluate to a bool") };
  out.program = r.program;
  out.usesOldSelf = r.program.references.has(oldScopedVarName);
  if (schema !== undefined && r.program.ast !== undefined) {
    out.maxCost = estimateCost(r.program.ast, schema);
    out.maxCardinality = maxCardinality(minSerializedSize(schema));
  }
  if ((rule.messageExpression ?? "") !== "") compileMessageExpression(rule.messageExpression!, out, base, typed, schema);
  return out;
}

/** A rule's messageExpression, which must give a string. */
function compileMessageExpression(
  expression: string,
  out: CompilationResult,
  base: CELEnvironment,
  typed?: CELEnvironment,
  schema?: JSONSchemaProps,
): void {
  const m = base.compile(expression);
  if (m.error !== undefined) {
    out.messageExpressionError = invalid(`messageExpression ${m.error.detail}`);
    return;
  }
  const tm = typedCheck(typed, expression);
  if (tm?.error !== undefined) out.messageExpressionError = invalid(`messageExpression ${tm.error.detail}`);
  else if (!gives(m.program, "string") || !gives(tm?.type, "string"))
    out.messageExpressionError = invalid("messageExpression must evaluate to a string");
  else {
    out.messageExpression = m.program;
    if (schema !== undefined && m.program.ast !== undefined) out.messageExpressionMaxCost = estimateCost(m.program.ast, schema);
  }
}

const errorOf = (e: CELError): RuleCompilation["error"] => ({ type: e.type, detail: e.detail });

/** The typed environments of schema nodes, by the libraries they were made with. */
const typedBySchema = new WeakMap<readonly Library[], WeakMap<JSONSchemaProps, CELEnvironment | undefined>>();

/** An environment declaring `self` and `oldSelf` as the types of `schema` (prepareEnvSet). */
function typedEnvironment(schema: JSONSchemaProps, optionalOldSelf: boolean, libraries: readonly Library[]): CELEnvironment | undefined {
  const types: ObjectTypes = {};
  const self = schemaDeclType(schema, types);
  if (self === "dyn") return undefined;
  // Field types name nested object types: those are declared first.
  const objectTypes = Object.fromEntries(Object.entries(types).reverse());
  const oldSelf = optionalOldSelf ? `optional<${self}>` : self;
  return new CELEnvironment({ libraries, objectTypes, variables: { [scopedVarName]: self, [oldScopedVarName]: oldSelf } });
}

/**
 * Compile: the rules of one schema node, in order, in the environment of the AuthorizeWithSelectors
 * gate (environment/base.go adds the selector library only with it).
 */
export function compileRules(
  schema: JSONSchemaProps,
  rules: readonly ValidationRule[],
  authorizeWithSelectors = true,
): CompilationResult[] {
  const libraries = kubernetesLibrariesFor({ authorizeWithSelectors });
  const base = authorizeWithSelectors ? env : (envWithoutSelectors ??= untyped(libraries));
  let typedOf = typedBySchema.get(libraries);
  if (typedOf === undefined) typedBySchema.set(libraries, (typedOf = new WeakMap()));
  if (!typedOf.has(schema)) typedOf.set(schema, typedEnvironment(schema, false, libraries));
  const typed = typedOf.get(schema);
  return rules.map((r) => compileRule(r, r.optionalOldSelf === true ? typedEnvironment(schema, true, libraries) : typed, schema, base));
}

/** The compiler CRD validation is given under the AuthorizeWithSelectors gate. */
export function validationRuleCompiler(authorizeWithSelectors: boolean): ValidationRuleCompiler {
  return (schema, rules) => compileRules(schema, rules, authorizeWithSelectors);
}

/** {@link validationRuleCompiler} with the AuthorizeWithSelectors gate on (its default). */
export const compileValidationRules: ValidationRuleCompiler = validationRuleCompiler(true);
