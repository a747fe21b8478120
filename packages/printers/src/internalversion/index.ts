/** pkg/printers/internalversion: the Table handler of each served kind. */
export * from "./service.ts";
export * from "./endpoints.ts";
export * from "./networking.ts";
export * from "./core.ts";
export * from "./pod.ts";
export * from "./event.ts";
export * from "./coordination.ts";
export * from "./config-map.ts";
export * from "./secret.ts";
export { parseTime, sinceMs, translateTimestampSince } from "./time.ts";
export * from "./rbac.ts";
export * from "./flowcontrol.ts";
export * from "./apps.ts";
export * from "./admissionregistration.ts";
export * from "./scheduling.ts";
export * from "./apps-statefulset.ts";
export * from "./apps-daemonset.ts";
