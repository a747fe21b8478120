/** admissionregistration.k8s.io/v1: ValidatingAdmissionPolicy and its bindings, the webhook configurations. */
export * from "./types.ts";
export * from "./defaults.ts";
export * from "./validation.ts";
export { validateMatchResources, validateNamedRuleWithOperations } from "./validation-rules.ts";
export * from "./webhook-types.ts";
export * from "./webhook-defaults.ts";
export * from "./webhook-validation.ts";
export { parseGoURL, validateWebhookService, validateWebhookURL, type GoURL } from "./webhook-client-config.ts";
