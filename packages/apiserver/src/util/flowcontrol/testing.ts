/**
 * Test and bench support: a dispatcher over the bootstrap configuration with its own metrics
 * registry and no object counts or watches, as the flowcontrol tests and the dispatch bench use it.
 */
import type { Clock } from "@servicenet/component-base/clock";
import { MetricsRegistry } from "@servicenet/component-base/metrics";
import { defaultedBootstrapConfiguration } from "@servicenet/api/flowcontrol/v1";
import { FlowControl } from "./apf-filter.ts";
import { flowControlMetrics } from "./metrics.ts";

/** A FlowControl with the bootstrap FlowSchemas and priority levels applied. */
export function newBootstrapFlowControl(o: { clock?: Clock; serverConcurrencyLimit?: number } = {}): {
  fc: FlowControl;
  registry: MetricsRegistry;
} {
  const registry = new MetricsRegistry();
  const fc = new FlowControl({
    serverConcurrencyLimit: o.serverConcurrencyLimit ?? 600,
    requestWaitLimitMs: 15_000,
    metrics: flowControlMetrics(registry),
    addCollector: (fn) => registry.addCollector(fn),
    sources: { objectCount: () => undefined, watchCount: () => 0 },
    ...(o.clock !== undefined ? { clock: o.clock } : {}),
  });
  const { flowSchemas, priorityLevels } = defaultedBootstrapConfiguration();
  fc.update(flowSchemas, priorityLevels);
  return { fc, registry };
}
