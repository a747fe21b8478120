/** flowcontrol.apiserver.k8s.io/v1: FlowSchema, PriorityLevelConfiguration, their defaulting, validation and bootstrap objects. */
export * from "./types.ts";
export * from "./defaults.ts";
export * from "./validation.ts";
export * from "./bootstrap.ts";
export * from "./shuffle-sharding.ts";
