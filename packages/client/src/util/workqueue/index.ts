/** client-go util/workqueue: the one work queue (typed, delaying, rate-limited) and its rate limiters. */
export { WorkQueue, defaultQueue } from "./queue.ts";
export type { QueueConfig, Queue } from "./queue.ts";
export { QueueMetrics } from "./metrics.ts";
export type { MetricsProvider, CounterMetric, GaugeMetric, SettableGaugeMetric, HistogramMetric } from "./metrics.ts";
export { RateLimitingQueue } from "./rate-limiting-queue.ts";
export {
  ItemExponentialFailureRateLimiter,
  BucketRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
} from "./default-rate-limiters.ts";
export type { RateLimiter } from "./default-rate-limiters.ts";
