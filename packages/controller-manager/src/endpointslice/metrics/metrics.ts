/**
 * The EndpointSlice controller's metrics (`staging/src/k8s.io/endpointslice/metrics/metrics.go`),
 * subsystem `endpoint_slice_controller`, in the controller-manager's registry.
 */
import { defBuckets, exponentialBuckets, type MetricsRegistry } from "@servicenet/component-base/metrics";

/** The metrics, registered once per registry (a second call returns the same series). */
export function newEndpointSliceMetrics(registry: MetricsRegistry) {
  const perSync = exponentialBuckets(2, 2, 15);
  const s = "endpoint_slice_controller";
  return {
    endpointsAddedPerSync: registry.histogram(
      `${s}_endpoints_added_per_sync`,
      "[BETA] Number of endpoints added on each Service sync",
      perSync,
    ),
    endpointsRemovedPerSync: registry.histogram(
      `${s}_endpoints_removed_per_sync`,
      "[BETA] Number of endpoints removed on each Service sync",
      perSync,
    ),
    endpointsDesired: registry.gauge(`${s}_endpoints_desired`, "[BETA] Number of endpoints desired"),
    numEndpointSlices: registry.gauge(`${s}_num_endpoint_slices`, "[BETA] Number of EndpointSlices"),
    desiredEndpointSlices: registry.gauge(
      `${s}_desired_endpoint_slices`,
      "[BETA] Number of EndpointSlices that would exist with perfect endpoint allocation",
    ),
    changes: registry.counter(`${s}_changes`, "[ALPHA] Number of EndpointSlice changes"),
    // No stability level upstream: ALPHA, component-base's default.
    endpointSlicesChangedPerSync: registry.histogram(
      `${s}_endpointslices_changed_per_sync`,
      "[ALPHA] Number of EndpointSlices changed on each Service sync",
      defBuckets,
    ),
    syncs: registry.counter(`${s}_syncs`, "[ALPHA] Number of EndpointSlice syncs"),
    servicesCountByTrafficDistribution: registry.gauge(
      `${s}_services_count_by_traffic_distribution`,
      "[BETA] Number of Services using some specific trafficDistribution",
    ),
  };
}

export type EndpointSliceMetrics = ReturnType<typeof newEndpointSliceMetrics>;
