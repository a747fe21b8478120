/** Prometheus metrics of kube-proxy (pkg/proxy/metrics). */
export { newProxyMetrics, networkProgrammingBuckets } from "./metrics.ts";
export type { ProxyMetrics } from "./metrics.ts";
