/**
 * The kubelet's clients (cmd/kubelet/app/server.go `buildKubeletClientConfig`): the main client
 * with kubeAPIQPS and kubeAPIBurst for registration, informers and Pod status writes, and the
 * heartbeat client (Leases, Node status) with QPS -1, never throttled. A real kubelet has one
 * main client per Node; this process runs N Nodes on one, so its bucket holds N Nodes' tokens, and
 * the heartbeat client's connection pool enough sockets for N Nodes' Lease renewals.
 */
import { DefaultBurst, DefaultQPS, type ClientConnectionLimits } from "@servicenet/client/rest";
import { DefaultMaxSockets } from "@servicenet/client/tools/clientcmd";

/** KubeletConfiguration's defaults (pkg/kubelet/apis/config/v1beta1/defaults.go): 50 and 100. */
export const defaultKubeAPIQPS = 50;
export const defaultKubeAPIBurst = 100;

/**
 * One bucket for `nodes` Nodes' clients of `limits` each: their QPS and burst times `nodes`
 * (0 is client-go's default 5 or 10 first, as rest.RESTClientFor; a negative QPS stays no limit).
 */
export function processClientLimits(limits: ClientConnectionLimits, nodes: number): ClientConnectionLimits {
  const qps = limits.qps === 0 ? DefaultQPS : limits.qps;
  const burst = limits.burst === 0 ? DefaultBurst : limits.burst;
  return { qps: qps < 0 ? qps : qps * nodes, burst: burst * nodes };
}

/**
 * Sockets of the heartbeat client's pool for `nodes` Nodes renewing their Leases every
 * `renewIntervalMs`: each real kubelet has a connection of its own, so every Node must find a
 * socket for its renewal within its turn. nodes / interval renewals a second, each given up to a
 * second, need that many sockets; never fewer than the pool's default.
 */
export function heartbeatSockets(nodes: number, renewIntervalMs: number): number {
  return Math.max(DefaultMaxSockets, Math.ceil((nodes * 1000) / renewIntervalMs));
}
