/**
 * The CEL environment of webhook matchConditions (k8s.io/apiserver/pkg/admission/plugin/webhook/
 * matchconditions and admission/plugin/cel/compile.go with HasParams false and HasAuthorizer true):
 * object, oldObject, request, namespaceObject and authorizer; `params` is undeclared, so a
 * condition naming it does not compile.
 */
import type { ExpressionCompiler } from "@servicenet/api/admissionregistration/v1";
import type { CompilationResult } from "../../../../apiserver/cel/index.ts";
import { expressionCompiler, newAdmissionEnvironment } from "../../cel/compile.ts";

const environment = newAdmissionEnvironment({ hasParams: false, hasComposition: false, hasAuthorizer: true });

/** Compiles one match condition; a failed compilation is kept and reported when it would run. */
export function compileMatchCondition(expression: string): CompilationResult {
  return environment.compile(expression);
}

/** The compile check webhook configuration validation runs on each matchCondition (validateMatchConditionsExpression). */
export const compileAdmissionExpression: ExpressionCompiler = expressionCompiler(environment);
