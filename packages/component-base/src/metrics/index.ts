/** component-base/metrics: the one registry and Prometheus text renderer. */
export { MetricsRegistry, CounterVec, GaugeVec, HistogramVec, defBuckets, exponentialBuckets, formatValue } from "./registry.ts";
export type { Labels } from "./registry.ts";
export { workqueueMetricsProvider } from "./prometheus/workqueue.ts";
