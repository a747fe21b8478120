/**
 * ClusterIP allocator metrics (upstream pkg/registry/core/service/ipallocator/metrics.go):
 * namespace `kube_apiserver`, subsystem `clusterip_allocator`, all ALPHA, labelled by CIDR
 * (and `scope` = static|dynamic for the counters). Both the bitmap Range and the IPAddress
 * allocator record them.
 */
import type { CounterVec, GaugeVec, HistogramVec, MetricsRegistry } from "@servicenet/component-base/metrics";

/** The allocator metric vectors of one registry. */
export interface ClusterIPAllocatorMetrics {
  allocated: GaugeVec;
  available: GaugeVec;
  allocations: CounterVec;
  allocationErrors: CounterVec;
  allocationDuration: HistogramVec;
  /** Registers a collector run before each /metrics render (for the gauges). */
  onCollect(fn: () => void): void;
}

/** Registers (or finds) the allocator metrics in `r`. */
export function clusterIPAllocatorMetrics(r: MetricsRegistry): ClusterIPAllocatorMetrics {
  const p = "kube_apiserver_clusterip_allocator";
  return {
    allocated: r.gauge(`${p}_allocated_ips`, "[ALPHA] Gauge measuring the number of allocated IPs for Services"),
    available: r.gauge(`${p}_available_ips`, "[ALPHA] Gauge measuring the number of available IPs for Services"),
    allocations: r.counter(`${p}_allocation_total`, "[ALPHA] Number of Cluster IPs allocations"),
    allocationErrors: r.counter(`${p}_allocation_errors_total`, "[ALPHA] Number of errors trying to allocate Cluster IPs"),
    allocationDuration: r.histogram(
      `${p}_allocation_duration_seconds`,
      "[ALPHA] Duration in seconds to allocate a Cluster IP by ServiceCIDR",
    ),
    onCollect: (fn) => r.addCollector(fn),
  };
}

/** Repair-loop metrics (upstream ipallocator/controller/metrics.go, namespace apiserver, subsystem clusterip_repair). */
export interface ClusterIPRepairMetrics {
  /** type = leak | repair | full | outOfRange | duplicate | unknown | invalid */
  ipErrors: CounterVec;
  reconcileErrors: CounterVec;
}

export function clusterIPRepairMetrics(r: MetricsRegistry): ClusterIPRepairMetrics {
  return {
    ipErrors: r.counter(
      "apiserver_clusterip_repair_ip_errors_total",
      "[ALPHA] Number of errors detected on clusterips by the repair loop broken down by type of error: leak, repair, full, outOfRange, duplicate, unknown, invalid",
    ),
    reconcileErrors: r.counter(
      "apiserver_clusterip_repair_reconcile_errors_total",
      "[ALPHA] Number of reconciliation failures on the clusterip repair reconcile loop",
    ),
  };
}
