/**
 * The metric handles of one (FlowSchema, priority level) pair, made once: the label text is built
 * once per pair, not per request, and the gauges are set from plain counters when /metrics renders.
 */
import type { FlowControlMetrics } from "./metrics.ts";

/** Hot-path metrics of one flow schema and priority level. */
export interface FlowMetrics {
  dispatched: { inc(by?: number): void };
  waitExecuted: { observe(seconds: number): void };
  waitRejected: { observe(seconds: number): void };
  execution: { observe(seconds: number): void };
  estimatedSeats: { observe(seats: number): void };
  labels: { flow_schema: string; priority_level: string };
  /** Current figures, copied into the gauges at render time. */
  inqueueRequests: number;
  inqueueSeats: number;
  executingRequests: number;
  executingSeats: number;
}

/** The pairs seen so far, and the collector that publishes their gauges. */
export class FlowMetricsCache {
  readonly #m: FlowControlMetrics;
  readonly #pairs: FlowMetrics[] = [];
  /** By flow schema, then priority level: no key string is built per request. */
  readonly #bySchema = new Map<string, Map<string, FlowMetrics>>();

  constructor(m: FlowControlMetrics, addCollector: (fn: () => void) => void) {
    this.#m = m;
    addCollector(() => {
      for (const f of this.#pairs) {
        m.inqueueRequests.set(f.labels, f.inqueueRequests);
        m.inqueueSeats.set(f.labels, f.inqueueSeats);
        m.executingRequests.set(f.labels, f.executingRequests);
        m.executingSeats.set(f.labels, f.executingSeats);
      }
    });
  }

  get metrics(): FlowControlMetrics {
    return this.#m;
  }

  /** The handles of a pair. */
  of(flowSchema: string, priorityLevel: string): FlowMetrics {
    let byLevel = this.#bySchema.get(flowSchema);
    if (byLevel === undefined) this.#bySchema.set(flowSchema, (byLevel = new Map()));
    let f = byLevel.get(priorityLevel);
    if (f === undefined) {
      const labels = { flow_schema: flowSchema, priority_level: priorityLevel };
      const m = this.#m;
      f = {
        labels,
        dispatched: m.dispatched.with(labels),
        waitExecuted: m.waitDuration.with({ ...labels, execute: "true" }),
        waitRejected: m.waitDuration.with({ ...labels, execute: "false" }),
        execution: m.executionSeconds.with({ ...labels, type: "regular" }),
        estimatedSeats: m.estimatedSeats.with(labels),
        inqueueRequests: 0,
        inqueueSeats: 0,
        executingRequests: 0,
        executingSeats: 0,
      };
      byLevel.set(priorityLevel, f);
      this.#pairs.push(f);
    }
    return f;
  }
}
