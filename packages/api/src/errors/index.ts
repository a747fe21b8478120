export * from "./field-error.ts";
export * from "./status-error.ts";
