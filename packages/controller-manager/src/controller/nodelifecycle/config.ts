/**
 * NodeLifecycleControllerConfiguration and --node-monitor-period with kube-controller-manager
 * 1.33's defaults (pkg/controller/nodelifecycle/config/v1alpha1/defaults.go,
 * cmd/kube-controller-manager/app/options/nodelifecyclecontroller.go).
 */

export interface NodeLifecycleConfig {
  /** --node-monitor-period: how often Node health is checked. */
  nodeMonitorPeriodMs: number;
  /** --node-monitor-grace-period: how long a running Node may be silent before it is Unknown. */
  nodeMonitorGracePeriodMs: number;
  /** --node-startup-grace-period: the same for a Node that never posted status. */
  nodeStartupGracePeriodMs: number;
  /** --node-eviction-rate: Nodes tainted per second in a healthy zone. */
  nodeEvictionRate: number;
  /** --secondary-node-eviction-rate: the same in an unhealthy zone of a large cluster. */
  secondaryNodeEvictionRate: number;
  /** --large-cluster-size-threshold. */
  largeClusterSizeThreshold: number;
  /** --unhealthy-zone-threshold: the not-Ready fraction (of at least 3) that makes a zone unhealthy. */
  unhealthyZoneThreshold: number;
}

export const defaultNodeLifecycleConfig: Readonly<NodeLifecycleConfig> = {
  nodeMonitorPeriodMs: 5_000,
  nodeMonitorGracePeriodMs: 50_000,
  nodeStartupGracePeriodMs: 60_000,
  nodeEvictionRate: 0.1,
  secondaryNodeEvictionRate: 0.01,
  largeClusterSizeThreshold: 50,
  unhealthyZoneThreshold: 0.55,
};
