export * from "./field-error.ts";
export * from "./status-error.ts";
export * from "./go-quote.ts";
