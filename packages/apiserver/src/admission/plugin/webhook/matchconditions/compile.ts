/**
 * The CEL environment of webhook matchConditions (k8s.io/apiserver/pkg/admission/plugin/webhook/
 * matchconditions and admission/plugin/cel/compile.go with HasParams false and HasAuthorizer true):
 * object, oldObject, request, namespaceObject and authorizer; `params` is undeclared, so a
 * condition naming it does not compile.
 */
import type { ExpressionCompiler } from "@servicenet/api/admissionregistration/v1";
import type { CELEnvironment, CompilationResult } from "../../../../apiserver/cel/index.ts";
import { expressionCompiler, newAdmissionEnvironment } from "../../cel/compile.ts";

/** The feature gates matchConditions compile under. */
export interface MatchConditionCompileOptions {
  /** AuthorizeWithSelectors (default on): `fieldSelector()`/`labelSelector()` compile. */
  authorizeWithSelectors?: boolean;
  /** StrictCostEnforcementForWebhooks (default on, locked since 1.32): library functions' costs count. */
  strictCost?: boolean;
}

// One environment per combination of the gates, made when first asked for.
const environments = new Map<string, CELEnvironment>();
function environmentFor(o: MatchConditionCompileOptions): CELEnvironment {
  const gates = { authorizeWithSelectors: o.authorizeWithSelectors ?? true, strictCost: o.strictCost ?? true };
  const key = `${gates.authorizeWithSelectors}/${gates.strictCost}`;
  let e = environments.get(key);
  if (e === undefined)
    environments.set(key, (e = newAdmissionEnvironment({ hasParams: false, hasComposition: false, hasAuthorizer: true, ...gates })));
  return e;
}

/** Compiles one match condition under the gates `o`; a failed compilation is kept and reported when it would run. */
export function compileMatchCondition(expression: string, o: MatchConditionCompileOptions = {}): CompilationResult {
  return environmentFor(o).compile(expression);
}

/**
 * The compile check webhook configuration validation runs on each matchCondition
 * (validateMatchConditionsExpression), under the AuthorizeWithSelectors gate as the plugin compiles.
 */
export function matchConditionCompiler(authorizeWithSelectors: boolean): ExpressionCompiler {
  return expressionCompiler(environmentFor({ authorizeWithSelectors }));
}

/** {@link matchConditionCompiler} with the AuthorizeWithSelectors gate on (its default). */
export const compileAdmissionExpression: ExpressionCompiler = matchConditionCompiler(true);
