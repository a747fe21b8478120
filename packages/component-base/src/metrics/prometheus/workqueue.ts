/**
 * The work queue's metrics in a registry (component-base `metrics/prometheus/workqueue/metrics.go`,
 * `prometheusMetricsProvider`): `workqueue_*` with label `name`, the queue's name. Structurally the
 * `MetricsProvider` of `@servicenet/client/util/workqueue`, which sits above this package.
 */
import { exponentialBuckets, type MetricsRegistry } from "../registry.ts";

interface Series {
  inc(): void;
  dec(): void;
  set(value: number): void;
  observe(seconds: number): void;
}

/** A workqueue metrics provider writing into `registry`. */
export function workqueueMetricsProvider(registry: MetricsRegistry) {
  const buckets = exponentialBuckets(10e-7, 10, 10);
  const depth = registry.gauge("workqueue_depth", "[BETA] Current depth of workqueue");
  const adds = registry.counter("workqueue_adds_total", "[BETA] Total number of adds handled by workqueue");
  const latency = registry.histogram(
    "workqueue_queue_duration_seconds",
    "[BETA] How long in seconds an item stays in workqueue before being requested.",
    buckets,
  );
  const workDuration = registry.histogram(
    "workqueue_work_duration_seconds",
    "[BETA] How long in seconds processing an item from workqueue takes.",
    buckets,
  );
  const unfinished = registry.gauge(
    "workqueue_unfinished_work_seconds",
    "[BETA] How many seconds of work has done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
  );
  const longest = registry.gauge(
    "workqueue_longest_running_processor_seconds",
    "[BETA] How many seconds has the longest running processor for workqueue been running.",
  );
  const retries = registry.counter("workqueue_retries_total", "[BETA] Total number of retries handled by workqueue");
  const gauge = (g: typeof depth, name: string): Pick<Series, "inc" | "dec" | "set"> => {
    const labels = { name };
    // A series exists from the queue's creation on, as client_golang's WithLabelValues makes it.
    g.set(labels, 0);
    return {
      inc: () => g.set(labels, g.get(labels) + 1),
      dec: () => g.set(labels, g.get(labels) - 1),
      set: (v) => g.set(labels, v),
    };
  };
  const counter = (c: typeof adds, name: string): Pick<Series, "inc"> => {
    const s = c.with({ name });
    return { inc: () => s.inc() };
  };
  return {
    newDepthMetric: (name: string) => gauge(depth, name),
    newAddsMetric: (name: string) => counter(adds, name),
    newLatencyMetric: (name: string) => latency.with({ name }),
    newWorkDurationMetric: (name: string) => workDuration.with({ name }),
    newUnfinishedWorkSecondsMetric: (name: string) => gauge(unfinished, name),
    newLongestRunningProcessorSecondsMetric: (name: string) => gauge(longest, name),
    newRetriesMetric: (name: string) => counter(retries, name),
    collect: (update: () => void) => registry.addCollector(update),
  };
}
