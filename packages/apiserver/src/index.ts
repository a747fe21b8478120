/** @servicenet/apiserver: storage, REST, allocation, repair and bootstrap. */
export const componentName = "apiserver" as const;
export * from "./storage/index.ts";
