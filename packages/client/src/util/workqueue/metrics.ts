/**
 * The work queue's metrics (client-go `util/workqueue/metrics.go`): a queue named and given a
 * provider counts adds and retries, its depth, how long items wait and how long they are
 * processed. The provider makes one series per queue name; component-base's
 * `workqueueMetricsProvider` writes them into a registry under upstream's `workqueue_*` names.
 */
import type { Clock } from "@servicenet/component-base/clock";

export interface CounterMetric {
  inc(): void;
}
export interface GaugeMetric {
  inc(): void;
  dec(): void;
}
export interface SettableGaugeMetric {
  set(value: number): void;
}
export interface HistogramMetric {
  observe(seconds: number): void;
}

/** upstream `workqueue.MetricsProvider`, plus `collect` (see {@link QueueMetrics.updateUnfinishedWork}). */
export interface MetricsProvider {
  newDepthMetric(name: string): GaugeMetric;
  newAddsMetric(name: string): CounterMetric;
  newLatencyMetric(name: string): HistogramMetric;
  newWorkDurationMetric(name: string): HistogramMetric;
  newUnfinishedWorkSecondsMetric(name: string): SettableGaugeMetric;
  newLongestRunningProcessorSecondsMetric(name: string): SettableGaugeMetric;
  newRetriesMetric(name: string): CounterMetric;
  /**
   * Calls `update` before the metrics are read. Upstream's queue refreshes its unfinished-work
   * gauges every 500 ms (`updateUnfinishedWorkLoop`); refreshing them when read gives the same
   * values without a timer per queue.
   */
  collect(update: () => void): void;
}

/** upstream `defaultQueueMetrics`: what one queue reports. */
export class QueueMetrics<T> {
  readonly #clock: Clock;
  readonly #depth: GaugeMetric;
  readonly #adds: CounterMetric;
  readonly #latency: HistogramMetric;
  readonly #workDuration: HistogramMetric;
  readonly #unfinished: SettableGaugeMetric;
  readonly #longestRunning: SettableGaugeMetric;
  readonly #retries: CounterMetric;
  readonly #addTimes = new Map<T, number>();
  readonly #processingStartTimes = new Map<T, number>();

  constructor(name: string, provider: MetricsProvider, clock: Clock) {
    this.#clock = clock;
    this.#depth = provider.newDepthMetric(name);
    this.#adds = provider.newAddsMetric(name);
    this.#latency = provider.newLatencyMetric(name);
    this.#workDuration = provider.newWorkDurationMetric(name);
    this.#unfinished = provider.newUnfinishedWorkSecondsMetric(name);
    this.#longestRunning = provider.newLongestRunningProcessorSecondsMetric(name);
    this.#retries = provider.newRetriesMetric(name);
    provider.collect(() => this.updateUnfinishedWork());
  }

  add(item: T): void {
    this.#adds.inc();
    this.#depth.inc();
    if (!this.#addTimes.has(item)) this.#addTimes.set(item, this.#clock.now());
  }

  get(item: T): void {
    this.#depth.dec();
    const now = this.#clock.now();
    this.#processingStartTimes.set(item, now);
    const added = this.#addTimes.get(item);
    if (added !== undefined) {
      this.#latency.observe((now - added) / 1000);
      this.#addTimes.delete(item);
    }
  }

  done(item: T): void {
    const started = this.#processingStartTimes.get(item);
    if (started === undefined) return;
    this.#workDuration.observe((this.#clock.now() - started) / 1000);
    this.#processingStartTimes.delete(item);
  }

  retry(): void {
    this.#retries.inc();
  }

  /** upstream `updateUnfinishedWork`: the total and the longest time of the items in processing. */
  updateUnfinishedWork(): void {
    const now = this.#clock.now();
    let total = 0;
    let oldest = 0;
    for (const start of this.#processingStartTimes.values()) {
      const age = (now - start) / 1000;
      total += age;
      if (age > oldest) oldest = age;
    }
    this.#unfinished.set(total);
    this.#longestRunning.set(oldest);
  }
}
