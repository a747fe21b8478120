/** apiextensions.k8s.io/v1: CustomResourceDefinition. */
export * from "./types.ts";
export * from "./defaults.ts";
export * from "./validation.ts";
export * from "./structural-schema.ts";
export * from "./validation-rules.ts";
export * from "./cel-validation.ts";
export * from "./field-path.ts";
