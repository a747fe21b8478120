/**
 * The node CIDR allocator's metrics (pkg/controller/nodeipam/ipam/cidrset/metrics.go), subsystem
 * `node_ipam_controller`, one series per cluster CIDR (label `clusterCIDR`), in the
 * controller-manager's registry.
 */
import {
  exponentialBuckets,
  type CounterVec,
  type GaugeVec,
  type HistogramVec,
  type MetricsRegistry,
} from "@servicenet/component-base/metrics";

export interface CidrSetMetrics {
  readonly allocations: CounterVec;
  readonly releases: CounterVec;
  readonly maxCidrs: GaugeVec;
  readonly usage: GaugeVec;
  readonly allocationTriesPerRequest: HistogramVec;
}

const s = "node_ipam_controller";

/** The metrics, registered once per registry (a second call returns the same series). */
export function newCidrSetMetrics(registry: MetricsRegistry): CidrSetMetrics {
  return {
    allocations: registry.counter(`${s}_cidrset_cidrs_allocations_total`, "[ALPHA] Counter measuring total number of CIDR allocations."),
    releases: registry.counter(`${s}_cidrset_cidrs_releases_total`, "[ALPHA] Counter measuring total number of CIDR releases."),
    // Upstream's spelling ("cirdset"): the name users scrape.
    maxCidrs: registry.gauge(`${s}_cirdset_max_cidrs`, "[ALPHA] Maximum number of CIDRs that can be allocated."),
    usage: registry.gauge(`${s}_cidrset_usage_cidrs`, "[ALPHA] Gauge measuring percentage of allocated CIDRs."),
    // Upstream's help text, copied from the EndpointSlice controller as it is.
    allocationTriesPerRequest: registry.histogram(
      `${s}_cidrset_allocation_tries_per_request`,
      "[ALPHA] Number of endpoints added on each Service sync",
      exponentialBuckets(1, 5, 5),
    ),
  };
}
