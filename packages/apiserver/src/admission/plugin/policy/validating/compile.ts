/**
 * Compiling a ValidatingAdmissionPolicy's expressions once per policy generation
 * (k8s.io/apiserver/pkg/admission/plugin/policy/validating/plugin.go compilePolicy and
 * admission/plugin/cel/compile.go): matchConditions, variables, validations with their
 * messageExpressions, and auditAnnotations, in one environment of the admission variables.
 */
import type { ExpressionCompiler, ValidatingAdmissionPolicy } from "@servicenet/api/admissionregistration/v1";
import type { CELEnvironment, CompilationResult } from "../../../../apiserver/cel/index.ts";
import { expressionCompiler, newAdmissionEnvironment } from "../../cel/compile.ts";

/** The feature gates a policy's environments follow. */
export interface PolicyCompileOptions {
  /** AuthorizeWithSelectors (default on): `fieldSelector()`/`labelSelector()` compile. */
  authorizeWithSelectors?: boolean;
  /** StrictCostEnforcementForVAP (default on, locked since 1.32): library functions' costs count. */
  strictCost?: boolean;
}

type Environments = { environment: CELEnvironment; messageEnvironment: CELEnvironment };

/** The environments of a policy's expressions under the gates. */
function newEnvironments(o: Required<PolicyCompileOptions>): Environments {
  return {
    environment: newAdmissionEnvironment({ hasParams: true, hasComposition: true, hasAuthorizer: true, ...o }),
    // plugin.go compilePolicy: messageExpressions are compiled without the authorizer (expressionOptionalVars).
    messageEnvironment: newAdmissionEnvironment({ hasParams: true, hasComposition: true, hasAuthorizer: false, ...o }),
  };
}

// One set of environments per combination of the gates, made when first asked for.
const environments = new Map<string, Environments>();
function environmentsFor(o: PolicyCompileOptions): Environments {
  const gates = { authorizeWithSelectors: o.authorizeWithSelectors ?? true, strictCost: o.strictCost ?? true };
  const key = `${gates.authorizeWithSelectors}/${gates.strictCost}`;
  let e = environments.get(key);
  if (e === undefined) environments.set(key, (e = newEnvironments(gates)));
  return e;
}

export interface CompiledValidation {
  expression: string;
  message?: string;
  reason?: string;
  program: CompilationResult;
  messageProgram?: CompilationResult;
}

/** The compiled expressions of one policy. */
export interface CompiledPolicy {
  matchConditions: { name: string; program: CompilationResult }[];
  variables: { name: string; program: CompilationResult }[];
  validations: CompiledValidation[];
  auditAnnotations: { key: string; valueExpression: string; program: CompilationResult }[];
}

/** Compiles `policy` under the gates `o`; a failed compilation is kept and reported when the expression would run. */
export function compilePolicy(policy: ValidatingAdmissionPolicy, o: PolicyCompileOptions = {}): CompiledPolicy {
  const spec = policy.spec;
  const { environment, messageEnvironment } = environmentsFor(o);
  return {
    matchConditions: (spec.matchConditions ?? []).map((c) => ({ name: c.name, program: environment.compile(c.expression) })),
    variables: (spec.variables ?? []).map((v) => ({ name: v.name, program: environment.compile(v.expression) })),
    validations: (spec.validations ?? []).map((v) => ({
      expression: v.expression,
      ...(v.message !== undefined ? { message: v.message } : {}),
      ...(v.reason !== undefined ? { reason: v.reason } : {}),
      program: environment.compile(v.expression),
      ...(v.messageExpression ? { messageProgram: messageEnvironment.compile(v.messageExpression) } : {}),
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => ({
      key: a.key,
      valueExpression: a.valueExpression,
      program: environment.compile(a.valueExpression),
    })),
  };
}

/**
 * The compile check policy validation runs on each expression (validation.go validateCELCondition):
 * the CEL error of an expression that does not compile in the admission environment, which has
 * `fieldSelector()`/`labelSelector()` only with the AuthorizeWithSelectors gate (environment/base.go).
 */
export function policyExpressionCompiler(authorizeWithSelectors: boolean): ExpressionCompiler {
  const { environment, messageEnvironment } = environmentsFor({ authorizeWithSelectors });
  return expressionCompiler(environment, messageEnvironment);
}

/** {@link policyExpressionCompiler} with the AuthorizeWithSelectors gate on (its default). */
export const compileAdmissionExpression: ExpressionCompiler = policyExpressionCompiler(true);
