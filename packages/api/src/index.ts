/** @servicenet/api: the typed contract every servicenet package shares. */
export * from "./errors/index.ts";
export * from "./net/index.ts";
export * from "./meta/v1/index.ts";
export * from "./core/v1/index.ts";
export * from "./discovery/v1/index.ts";
export * from "./networking/v1/index.ts";
export * from "./coordination/v1/index.ts";
export * from "./rbac/v1/index.ts";
export * from "./apps/v1/index.ts";
export * from "./batch/v1/index.ts";
export * from "./autoscaling/v1/index.ts";
export * from "./authentication/v1/index.ts";
// networking/v1beta1 repeats v1's names; it is reachable as the subpath `@servicenet/api/networking/v1beta1`.
export * from "./resource/index.ts";
