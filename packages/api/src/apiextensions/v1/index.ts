/** apiextensions.k8s.io/v1: CustomResourceDefinition. */
export * from "./types.ts";
export * from "./defaults.ts";
export * from "./validation.ts";
export * from "./structural-schema.ts";
