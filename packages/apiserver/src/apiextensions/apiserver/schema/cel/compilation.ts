/**
 * Compiling a schema node's x-kubernetes-validations rules (apiextensions-apiserver
 * pkg/apiserver/schema/cel/compilation.go Compile and compileRule): each rule in an environment
 * declaring `self` and `oldSelf`, which must give a bool, and its messageExpression, which must
 * give a string. The same compilation serves the CRD write (its errors are reported) and the
 * custom objects' validation (its programs run).
 */
import type { JSONSchemaProps, RuleCompilation, ValidationRule, ValidationRuleCompiler } from "@servicenet/api/apiextensions/v1";
import { CELEnvironment, type CELError, type Program } from "../../../../apiserver/cel/index.ts";

/** The variable a rule's value is bound to (compilation.go ScopedVarName). */
export const scopedVarName = "self";
/** The variable the old value is bound to in transition rules (compilation.go OldScopedVarName). */
export const oldScopedVarName = "oldSelf";

const env = new CELEnvironment({ variables: { [scopedVarName]: "dyn", [oldScopedVarName]: "dyn" } });

/** One compiled rule: what the CRD write reports and what object validation runs. */
export interface CompilationResult extends RuleCompilation {
  program?: Program;
  messageExpression?: Program;
}

const invalid = (detail: string): RuleCompilation["error"] => ({ type: "Invalid", detail });

// `dyn` is accepted where cel-go wants bool or string: the checker only knows a `dyn` self's
// fields as `dyn`, and cel-go's schema-typed check of the same rule would accept it.
const gives = (p: Program, type: string): boolean => p.outputType === type || p.outputType === "dyn";

/** compileRule: one rule and its messageExpression. */
export function compileRule(rule: ValidationRule): CompilationResult {
  const out: CompilationResult = { usesOldSelf: false };
  // An empty rule is reported by the schema checks, not compiled.
  if ((rule.rule ?? "").trim() === "") return out;
  const r = env.compile(rule.rule);
  if (r.error !== undefined) return { ...out, error: errorOf(r.error) };
  if (!gives(r.program, "bool")) return { ...out, error: invalid("cel expression must evaluate to a bool") };
  out.program = r.program;
  out.usesOldSelf = r.program.references.has(oldScopedVarName);
  if ((rule.messageExpression ?? "") !== "") {
    const m = env.compile(rule.messageExpression!);
    if (m.error !== undefined) out.messageExpressionError = invalid(`messageExpression ${m.error.detail}`);
    else if (!gives(m.program, "string")) out.messageExpressionError = invalid("messageExpression must evaluate to a string");
    else out.messageExpression = m.program;
  }
  return out;
}

const errorOf = (e: CELError): RuleCompilation["error"] => ({ type: e.type, detail: e.detail });

/** Compile: the rules of one schema node, in order. */
export function compileRules(_schema: JSONSchemaProps, rules: readonly ValidationRule[]): CompilationResult[] {
  return rules.map(compileRule);
}

/** The compiler CRD validation is given. */
export const compileValidationRules: ValidationRuleCompiler = compileRules;
