export * from "./name.ts";
export * from "./labels.ts";
export * from "./object-meta.ts";
