/** coordination.k8s.io/v1: Lease. */
export * from "./lease.ts";
export * from "./validation.ts";
