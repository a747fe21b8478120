/** scheduling.k8s.io/v1: PriorityClass, its defaulting, validation and the system classes. */
export * from "./types.ts";
export * from "./validation.ts";
