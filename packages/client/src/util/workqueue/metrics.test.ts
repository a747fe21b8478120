import { describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import { MetricsRegistry, workqueueMetricsProvider } from "@servicenet/component-base/metrics";
import { RateLimitingQueue } from "./rate-limiting-queue.ts";
import { WorkQueue } from "./queue.ts";

/** The value of one sample line of the exposition text. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("workqueue metrics (upstream metrics_test.go)", () => {
  it("TestMetrics: adds, depth, queue latency, work duration, unfinished work", async () => {
    const registry = new MetricsRegistry();
    const clock = new FakeClock(0);
    const q = new WorkQueue<string>("test", { metricsProvider: workqueueMetricsProvider(registry), clock });
    const read = (s: string) => sample(registry.render(), s);
    q.add("foo");
    expect(read('workqueue_adds_total{name="test"}')).toBe(1);
    expect(read('workqueue_depth{name="test"}')).toBe(1);
    clock.step(0.05);
    const i = await q.get();
    expect(i).toBe("foo");
    expect(read('workqueue_queue_duration_seconds_sum{name="test"}')).toBeCloseTo(5e-5, 12);
    expect(read('workqueue_queue_duration_seconds_count{name="test"}')).toBe(1);
    // Added back while processing; repeated adds are de-duplicated.
    for (let n = 0; n < 5; n++) q.add("foo");
    expect(read('workqueue_adds_total{name="test"}')).toBe(2);
    expect(read('workqueue_depth{name="test"}')).toBe(1);
    clock.step(0.025);
    q.done("foo");
    expect(read('workqueue_work_duration_seconds_sum{name="test"}')).toBeCloseTo(2.5e-5, 12);
    expect(read('workqueue_work_duration_seconds_count{name="test"}')).toBe(1);
    expect(read('workqueue_depth{name="test"}')).toBe(1);
    await q.get();
    expect(read('workqueue_depth{name="test"}')).toBe(0);
    expect(read('workqueue_queue_duration_seconds_sum{name="test"}')).toBeCloseTo(7.5e-5, 12);
    expect(read('workqueue_queue_duration_seconds_count{name="test"}')).toBe(2);
    clock.step(1);
    expect(read('workqueue_unfinished_work_seconds{name="test"}')).toBeCloseTo(0.001, 12);
    expect(read('workqueue_longest_running_processor_seconds{name="test"}')).toBeCloseTo(0.001, 12);
    q.done("foo");
    expect(read('workqueue_work_duration_seconds_count{name="test"}')).toBe(2);
    expect(read('workqueue_unfinished_work_seconds{name="test"}')).toBe(0);
  });

  it("counts every AddAfter and AddRateLimited as a retry", () => {
    const registry = new MetricsRegistry();
    const q = new RateLimitingQueue<string>("retry", new FakeClock(0), undefined, workqueueMetricsProvider(registry));
    q.addRateLimited("a");
    q.addAfter("b", 0);
    q.add("c");
    expect(sample(registry.render(), 'workqueue_retries_total{name="retry"}')).toBe(2);
    q.shutDown();
  });

  it("keeps no metrics for an unnamed queue (upstream's noMetrics)", () => {
    const registry = new MetricsRegistry();
    const q = new WorkQueue<string>("", { metricsProvider: workqueueMetricsProvider(registry) });
    q.add("a");
    expect(registry.render()).not.toContain('name=""');
  });
});
