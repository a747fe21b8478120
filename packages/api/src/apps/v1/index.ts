/** apps/v1: Deployment and ReplicaSet, their defaulting and validation. */
export * from "./types.ts";
export * from "./defaults.ts";
export * from "./validation.ts";
export * from "./status-validation.ts";
export * from "./go-values.ts";
export * from "./statefulset-types.ts";
export * from "./statefulset-defaults.ts";
export * from "./statefulset-validation.ts";
export * from "./daemonset-types.ts";
export * from "./daemonset-defaults.ts";
export * from "./daemonset-validation.ts";
