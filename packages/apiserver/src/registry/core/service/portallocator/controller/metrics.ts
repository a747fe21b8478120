/**
 * NodePort repair metrics (upstream portallocator/controller/metrics.go, namespace apiserver,
 * subsystem nodeport_repair, ALPHA), the counterparts of the clusterip_repair ones.
 */
import type { CounterVec, MetricsRegistry } from "@servicenet/component-base/metrics";

/** The NodePort repair metric vectors of one registry. */
export interface NodePortRepairMetrics {
  /** type = leak | repair | full | outOfRange | duplicate | unknown */
  portErrors: CounterVec;
  reconcileErrors: CounterVec;
}

/** Registers (or finds) the NodePort repair metrics in `r`. */
export function nodePortRepairMetrics(r: MetricsRegistry): NodePortRepairMetrics {
  return {
    portErrors: r.counter(
      "apiserver_nodeport_repair_port_errors_total",
      "[ALPHA] Number of errors detected on ports by the repair loop broken down by type of error: leak, repair, full, outOfRange, duplicate, unknown",
    ),
    reconcileErrors: r.counter(
      "apiserver_nodeport_repair_reconcile_errors_total",
      "[ALPHA] Number of reconciliation failures on the nodeport repair reconcile loop",
    ),
  };
}
