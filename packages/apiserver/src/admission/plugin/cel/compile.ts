/**
 * The CEL environments of admission expressions (k8s.io/apiserver/pkg/admission/plugin/cel/compile.go):
 * `object`, `oldObject`, `request` and `namespaceObject` always, `params` when the expressions'
 * owner has them (`OptionalVariableDeclarations.HasParams`: policies yes, webhook matchConditions
 * no), `variables` when it composes them (policies) and `authorizer` (with
 * `authorizer.requestResource`) when it is given the authorizer (`HasAuthorizer`: policies and
 * webhook matchConditions). An undeclared name does not compile, nor do `fieldSelector()` and
 * `labelSelector()` with the AuthorizeWithSelectors gate off (`authorizeWithSelectors: false`).
 * `strictCost` (StrictCostEnforcementForVAP for policies, StrictCostEnforcementForWebhooks for
 * matchConditions; compile.go createEnvForOpts's `MustBaseEnvSet(ver, opts.StrictCost)`) charges
 * the library functions' costs at runtime.
 */
import type { ExpressionCompiler } from "@servicenet/api/admissionregistration/v1";
import { authorizerType, CELEnvironment, kubernetesLibrariesFor } from "../../../apiserver/cel/index.ts";

/** An admission environment with the optional declarations `o` asks for. */
export function newAdmissionEnvironment(o: {
  hasParams: boolean;
  hasComposition: boolean;
  hasAuthorizer: boolean;
  authorizeWithSelectors?: boolean;
  strictCost?: boolean;
}): CELEnvironment {
  return new CELEnvironment({
    strictCost: o.strictCost ?? true,
    libraries: kubernetesLibrariesFor({ authorizeWithSelectors: o.authorizeWithSelectors ?? true }),
    variables: {
      object: "dyn",
      oldObject: "dyn",
      request: "dyn",
      namespaceObject: "dyn",
      ...(o.hasParams ? { params: "dyn" } : {}),
      ...(o.hasComposition ? { variables: "dyn" } : {}),
      ...(o.hasAuthorizer ? { authorizer: authorizerType } : {}),
    },
  });
}

/**
 * The compile check validation runs on each expression of a configuration (validation.go
 * `validateCELCondition`, `validateMatchConditionsExpression`): the CEL error of an expression that
 * does not compile in `environment` (`withoutAuthorizer` when the validation asks for no
 * authorizer: messageExpressions), or undefined.
 */
export function expressionCompiler(environment: CELEnvironment, withoutAuthorizer: CELEnvironment = environment): ExpressionCompiler {
  return (expression, declarations) => {
    const r = (declarations?.hasAuthorizer === false ? withoutAuthorizer : environment).compile(expression);
    return r.error ? { type: r.error.type, detail: r.error.detail } : undefined;
  };
}
