/** @servicenet/component-base: the libraries every component shares (k8s.io/component-base, k8s.io/utils/clock). */
export * from "./clock/index.ts";
export * from "./metrics/index.ts";
export * from "./logs/index.ts";
export * from "./duration/index.ts";
export * from "./healthz/index.ts";
export * from "./version/index.ts";
export * from "./featuregate/index.ts";
export * from "./compatibility/index.ts";
