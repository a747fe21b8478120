/** @servicenet/kubectl: an API client of the servicenet apiserver; it talks to it over HTTP only. */
export const componentName = "kubectl" as const;
export * from "./describe/index.ts";
export * from "./printers/index.ts";
export * from "./usage/index.ts";
export * from "./util/index.ts";
export type * from "./types.ts";
