/**
 * Kubernetes' CEL (k8s.io/apiserver/pkg/cel): environments with the Kubernetes libraries, compiled
 * programs with runtime cost limits, and the value types of the libraries.
 */
export { CELEnvironment, CELError, Program } from "./environment.ts";
export type { CheckResult, CompilationResult, CostBudget, EnvironmentOptions, ErrorType, EvalOptions, EvalResult } from "./environment.ts";
export { CostLimitExceededError } from "./cost.ts";
export { CIDR, IP } from "./ip.ts";
export { URLValue } from "./library/urls.ts";
export { AuthorizerValue, authorizerType, authzCheckCost } from "./library/authz.ts";
export type { ResourceFields } from "./library/authz.ts";
export { kubernetesLibraries, kubernetesLibrariesFor } from "./library/libraries.ts";
export type { Library } from "./library/library.ts";
export {
  costLimitExceededMessage,
  outOfBudgetMessage,
  perCallLimit,
  runtimeCELCostBudget,
  runtimeCELCostBudgetMatchConditions,
  staticEstimatedCostLimit,
  checkFrequency,
} from "./limits.ts";
export { fromCEL, toCEL, toCELOptional } from "./values.ts";
export { correlateField, correlateListItem, correlatedDeepEqual, type Correlated } from "./common/equality.ts";
export { trustedTypeError } from "./typed-check.ts";
