/** @servicenet/api: the typed contract every servicenet package shares. */
export * from "./errors/index.ts";
