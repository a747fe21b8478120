/**
 * The kubelet's metrics a user scrapes (pkg/kubelet/metrics/metrics.go), in one registry for the
 * process: `kubelet_node_name` (one series per simulated Node), `kubelet_running_pods` (Pods
 * with a running sandbox: here, a runtime), `kubelet_started_pods_total`, and
 * `kubelet_pod_start_duration_seconds` (from the kubelet first seeing a Pod to its first sync that
 * reports it Running, as `Kubelet.SyncPod` observes it), with upstream's names, help and buckets.
 */
import { MetricsRegistry, type CounterVec, type GaugeVec, type HistogramVec } from "@servicenet/component-base/metrics";

/** metrics.go `podStartupDurationBuckets`. */
export const podStartupDurationBuckets = [
  0.5, 1, 2, 3, 4, 5, 6, 8, 10, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600,
] as const;

export interface KubeletMetrics {
  registry: MetricsRegistry;
  nodeName: GaugeVec;
  runningPods: GaugeVec;
  startedPodsTotal: CounterVec;
  podStartDuration: HistogramVec;
}

/** A registry with the kubelet's metrics registered. */
export function newKubeletMetrics(registry = new MetricsRegistry()): KubeletMetrics {
  return {
    registry,
    nodeName: registry.gauge("kubelet_node_name", "[ALPHA] The node's name. The count is always 1."),
    runningPods: registry.gauge("kubelet_running_pods", "[ALPHA] Number of pods that have a running pod sandbox"),
    startedPodsTotal: registry.counter("kubelet_started_pods_total", "[ALPHA] Cumulative number of pods started"),
    podStartDuration: registry.histogram(
      "kubelet_pod_start_duration_seconds",
      "[ALPHA] Duration in seconds from kubelet seeing a pod for the first time to the pod starting to run",
      podStartupDurationBuckets,
    ),
  };
}
