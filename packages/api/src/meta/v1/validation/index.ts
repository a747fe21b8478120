export * from "./name.ts";
export * from "./labels.ts";
export * from "./immutable.ts";
export * from "./object-meta.ts";
export * from "./label-selector.ts";
export * from "./field-selector.ts";
export * from "./conditions.ts";
