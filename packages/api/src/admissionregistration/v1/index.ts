/** admissionregistration.k8s.io/v1: ValidatingAdmissionPolicy and its bindings. */
export * from "./types.ts";
export * from "./defaults.ts";
export * from "./validation.ts";
export { validateMatchResources, validateNamedRuleWithOperations } from "./validation-rules.ts";
