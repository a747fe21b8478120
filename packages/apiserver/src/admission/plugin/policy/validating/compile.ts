/**
 * Compiling a ValidatingAdmissionPolicy's expressions once per policy generation
 * (k8s.io/apiserver/pkg/admission/plugin/policy/validating/plugin.go compilePolicy and
 * admission/plugin/cel/compile.go): matchConditions, variables, validations with their
 * messageExpressions, and auditAnnotations, in one environment of the admission variables.
 */
import type { ExpressionCompiler, ValidatingAdmissionPolicy } from "@servicenet/api/admissionregistration/v1";
import type { CELEnvironment, CompilationResult } from "../../../../apiserver/cel/index.ts";
import { expressionCompiler, newAdmissionEnvironment } from "../../cel/compile.ts";

/** The environments of a policy's expressions under the AuthorizeWithSelectors gate. */
function newEnvironments(authorizeWithSelectors: boolean): { environment: CELEnvironment; messageEnvironment: CELEnvironment } {
  return {
    environment: newAdmissionEnvironment({ hasParams: true, hasComposition: true, hasAuthorizer: true, authorizeWithSelectors }),
    // plugin.go compilePolicy: messageExpressions are compiled without the authorizer (expressionOptionalVars).
    messageEnvironment: newAdmissionEnvironment({ hasParams: true, hasComposition: true, hasAuthorizer: false, authorizeWithSelectors }),
  };
}

const withSelectors = newEnvironments(true);
let withoutSelectors: ReturnType<typeof newEnvironments> | undefined;
const environmentsFor = (authorizeWithSelectors: boolean): ReturnType<typeof newEnvironments> =>
  authorizeWithSelectors ? withSelectors : (withoutSelectors ??= newEnvironments(false));

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

/**
 * Compiles `policy`; a failed compilation is kept and reported when the expression would run.
 * `authorizeWithSelectors` is the AuthorizeWithSelectors feature gate (default on).
 */
export function compilePolicy(policy: ValidatingAdmissionPolicy, authorizeWithSelectors = true): CompiledPolicy {
  const spec = policy.spec;
  const { environment, messageEnvironment } = environmentsFor(authorizeWithSelectors);
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
  const { environment, messageEnvironment } = environmentsFor(authorizeWithSelectors);
  return expressionCompiler(environment, messageEnvironment);
}

/** {@link policyExpressionCompiler} with the AuthorizeWithSelectors gate on (its default). */
export const compileAdmissionExpression: ExpressionCompiler = policyExpressionCompiler(true);
