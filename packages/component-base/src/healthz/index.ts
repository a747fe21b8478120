/** The healthz handlers (k8s.io/apiserver/pkg/server/healthz), shared by the components that serve health. */
export { namedCheck, pingHealthz, rootHealth, singleHealth, serveHealth, isHealthPath } from "./healthz.ts";
export type { HealthChecker, HealthAnswer, HealthChecks } from "./healthz.ts";
