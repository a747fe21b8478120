/**
 * The EndpointSlice mirroring controller's metrics
 * (`pkg/controller/endpointslicemirroring/metrics/metrics.go`), subsystem
 * `endpoint_slice_mirroring_controller`, in the controller-manager's registry. All are ALPHA upstream.
 */
import { exponentialBuckets, type MetricsRegistry } from "@servicenet/component-base/metrics";

/** The metrics, registered once per registry (a second call returns the same series). */
export function newEndpointSliceMirroringMetrics(registry: MetricsRegistry) {
  const perSync = exponentialBuckets(2, 2, 15);
  const s = "endpoint_slice_mirroring_controller";
  return {
    endpointsAddedPerSync: registry.histogram(
      `${s}_endpoints_added_per_sync`,
      "[ALPHA] Number of endpoints added on each Endpoints sync",
      perSync,
    ),
    endpointsUpdatedPerSync: registry.histogram(
      `${s}_endpoints_updated_per_sync`,
      "[ALPHA] Number of endpoints updated on each Endpoints sync",
      perSync,
    ),
    endpointsRemovedPerSync: registry.histogram(
      `${s}_endpoints_removed_per_sync`,
      "[ALPHA] Number of endpoints removed on each Endpoints sync",
      perSync,
    ),
    addressesSkippedPerSync: registry.histogram(
      `${s}_addresses_skipped_per_sync`,
      "[ALPHA] Number of addresses skipped on each Endpoints sync due to being invalid or exceeding MaxEndpointsPerSubset",
      perSync,
    ),
    endpointsSyncDuration: registry.histogram(
      `${s}_endpoints_sync_duration`,
      "[ALPHA] Duration of syncEndpoints() in seconds",
      exponentialBuckets(0.001, 2, 15),
    ),
    endpointsDesired: registry.gauge(`${s}_endpoints_desired`, "[ALPHA] Number of endpoints desired"),
    numEndpointSlices: registry.gauge(`${s}_num_endpoint_slices`, "[ALPHA] Number of EndpointSlices"),
    desiredEndpointSlices: registry.gauge(
      `${s}_desired_endpoint_slices`,
      "[ALPHA] Number of EndpointSlices that would exist with perfect endpoint allocation",
    ),
    changes: registry.counter(`${s}_changes`, "[ALPHA] Number of EndpointSlice changes"),
  };
}

export type EndpointSliceMirroringMetrics = ReturnType<typeof newEndpointSliceMirroringMetrics>;
