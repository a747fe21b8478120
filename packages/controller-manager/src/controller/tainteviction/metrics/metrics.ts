/**
 * The taint-eviction controller's metrics (pkg/controller/tainteviction/metrics/metrics.go),
 * subsystem `taint_eviction_controller`, in the controller-manager's registry. Both are ALPHA upstream.
 */
import type { MetricsRegistry } from "@servicenet/component-base/metrics";

/** The metrics, registered once per registry (a second call returns the same series). */
export function newTaintEvictionMetrics(registry: MetricsRegistry) {
  const s = "taint_eviction_controller";
  return {
    podDeletionsTotal: registry.counter(
      `${s}_pod_deletions_total`,
      "[ALPHA] Total number of Pods deleted by TaintEvictionController since its start.",
    ),
    podDeletionsLatency: registry.histogram(
      `${s}_pod_deletion_duration_seconds`,
      "[ALPHA] Latency, in seconds, between the time when a taint effect has been activated for the Pod and its deletion via TaintEvictionController.",
      // 5ms to 4m
      [0.005, 0.025, 0.1, 0.5, 1, 2.5, 10, 30, 60, 120, 180, 240],
    ),
  };
}

export type TaintEvictionMetrics = ReturnType<typeof newTaintEvictionMetrics>;
