/**
 * kube-proxy's sync metrics (pkg/proxy/metrics/metrics.go), subsystem
 * `kubeproxy`. Every series carries the family as label `ip_family`, the
 * direction of upstream 1.33+ (the label's exact name is not verified against upstream).
 */
import { MetricsRegistry, exponentialBuckets } from "@servicenet/component-base/metrics";

/** network_programming_duration_seconds buckets: 0.25, 0.5, 1..59 s, 60..115 s by 5, 120..300 s by 30. */
export function networkProgrammingBuckets(): number[] {
  const b = [0.25, 0.5];
  for (let s = 1; s <= 59; s++) b.push(s);
  for (let s = 60; s <= 115; s += 5) b.push(s);
  for (let s = 120; s <= 300; s += 30) b.push(s);
  return b;
}

/** All kube-proxy metrics in one registry. */
export function newProxyMetrics() {
  const registry = new MetricsRegistry();
  const syncBuckets = exponentialBuckets(0.001, 2, 15);
  const m = {
    registry,
    syncProxyRulesLatency: registry.histogram(
      "kubeproxy_sync_proxy_rules_duration_seconds",
      "SyncProxyRules latency in seconds",
      syncBuckets,
    ),
    syncFullProxyRulesLatency: registry.histogram(
      "kubeproxy_sync_full_proxy_rules_duration_seconds",
      "SyncProxyRules latency in seconds for full resyncs",
      syncBuckets,
    ),
    syncPartialProxyRulesLatency: registry.histogram(
      "kubeproxy_sync_partial_proxy_rules_duration_seconds",
      "SyncProxyRules latency in seconds for partial resyncs",
      syncBuckets,
    ),
    networkProgrammingLatency: registry.histogram(
      "kubeproxy_network_programming_duration_seconds",
      "In Cluster Network Programming Latency in seconds",
      networkProgrammingBuckets(),
    ),
    conntrackReconcilerLatency: registry.histogram(
      "kubeproxy_conntrack_reconciler_sync_duration_seconds",
      "ReconcileConntrackFlowsLatency latency in seconds",
      syncBuckets,
    ),
    conntrackReconcilerDeletedTotal: registry.counter(
      "kubeproxy_conntrack_reconciler_deleted_entries_total",
      "Cumulative conntrack flows deleted by conntrack reconciler",
    ),
    syncProxyRulesLastTimestamp: registry.gauge(
      "kubeproxy_sync_proxy_rules_last_timestamp_seconds",
      "The last time proxy rules were successfully synced",
    ),
    syncProxyRulesLastQueuedTimestamp: registry.gauge(
      "kubeproxy_sync_proxy_rules_last_queued_timestamp_seconds",
      "The last time a sync of proxy rules was queued",
    ),
    // The health server's answers by HTTP status (label `code`), as pkg/proxy/metrics ProxyHealthzTotal / ProxyLivezTotal.
    proxyHealthzTotal: registry.counter("kubeproxy_proxy_healthz_total", "Cumulative proxy healthz HTTP status"),
    proxyLivezTotal: registry.counter("kubeproxy_proxy_livez_total", "Cumulative proxy livez HTTP status"),
    endpointChangesPending: registry.gauge("kubeproxy_sync_proxy_rules_endpoint_changes_pending", "Pending proxy rules Endpoint changes"),
    endpointChangesTotal: registry.counter("kubeproxy_sync_proxy_rules_endpoint_changes_total", "Cumulative proxy rules Endpoint changes"),
    serviceChangesPending: registry.gauge("kubeproxy_sync_proxy_rules_service_changes_pending", "Pending proxy rules Service changes"),
    serviceChangesTotal: registry.counter("kubeproxy_sync_proxy_rules_service_changes_total", "Cumulative proxy rules Service changes"),
    noLocalEndpointsTotal: registry.gauge(
      "kubeproxy_sync_proxy_rules_no_local_endpoints_total",
      "Number of services with a Local traffic policy and no endpoints",
    ),
    iptablesRulesTotal: registry.gauge("kubeproxy_sync_proxy_rules_iptables_total", "Total number of iptables rules owned by kube-proxy"),
    iptablesRulesLast: registry.gauge(
      "kubeproxy_sync_proxy_rules_iptables_last",
      "Number of iptables rules written by kube-proxy in last sync",
    ),
    iptablesRestoreFailuresTotal: registry.counter(
      "kubeproxy_sync_proxy_rules_iptables_restore_failures_total",
      "Cumulative proxy iptables restore failures",
    ),
    iptablesPartialRestoreFailuresTotal: registry.counter(
      "kubeproxy_sync_proxy_rules_iptables_partial_restore_failures_total",
      "Cumulative proxy iptables partial restore failures",
    ),
    nftablesSyncFailuresTotal: registry.counter(
      "kubeproxy_sync_proxy_rules_nftables_sync_failures_total",
      "Cumulative proxy nftables sync failures",
    ),
    // servicenet addition (no upstream counterpart): element counts of the nftables sets and maps.
    nftablesElements: registry.gauge(
      "kubeproxy_sync_proxy_rules_nftables_elements",
      "Number of elements in kube-proxy's nftables sets and maps",
    ),
  };
  return m;
}

export type ProxyMetrics = ReturnType<typeof newProxyMetrics>;
