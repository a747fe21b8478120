/**
 * The CEL environment of webhook matchConditions (k8s.io/apiserver/pkg/admission/plugin/webhook/
 * matchconditions and admission/plugin/cel/compile.go with HasParams false and HasAuthorizer true):
 * object, oldObject, request, namespaceObject and authorizer; `params` is undeclared, so a
 * condition naming it does not compile.
 */
import type { ExpressionCompiler } from "@servicenet/api/admissionregistration/v1";
import type { CompilationResult } from "../../../../apiserver/cel/index.ts";
import { expressionCompiler, newAdmissionEnvironment } from "../../cel/compile.ts";

const newEnvironment = (authorizeWithSelectors: boolean) =>
  newAdmissionEnvironment({ hasParams: false, hasComposition: false, hasAuthorizer: true, authorizeWithSelectors });
const environment = newEnvironment(true);
let withoutSelectors: ReturnType<typeof newEnvironment> | undefined;

/**
 * Compiles one match condition; a failed compilation is kept and reported when it would run.
 * `authorizeWithSelectors` is the AuthorizeWithSelectors feature gate (default on).
 */
export function compileMatchCondition(expression: string, authorizeWithSelectors = true): CompilationResult {
  return (authorizeWithSelectors ? environment : (withoutSelectors ??= newEnvironment(false))).compile(expression);
}

/**
 * The compile check webhook configuration validation runs on each matchCondition
 * (validateMatchConditionsExpression), under the AuthorizeWithSelectors gate as the plugin compiles.
 */
export function matchConditionCompiler(authorizeWithSelectors: boolean): ExpressionCompiler {
  return expressionCompiler(authorizeWithSelectors ? environment : (withoutSelectors ??= newEnvironment(false)));
}

/** {@link matchConditionCompiler} with the AuthorizeWithSelectors gate on (its default). */
export const compileAdmissionExpression: ExpressionCompiler = matchConditionCompiler(true);
