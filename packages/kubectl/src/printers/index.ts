/** Table builders (what the apiserver returns for as=Table) and kubectl's Table renderer. */
export * from "./table.ts";
export * from "./service.ts";
export * from "./endpoints.ts";
export * from "./networking.ts";
export * from "./core.ts";
export * from "./render.ts";
