/**
 * The kubelet's clients (cmd/kubelet/app/server.go `buildKubeletClientConfig`): the main client
 * with kubeAPIQPS and kubeAPIBurst for registration, informers and Pod status writes, and the
 * heartbeat client (Leases, Node status) with QPS -1, never throttled. A real kubelet has one
 * main client per Node; this process runs N Nodes on one, so its bucket holds N Nodes' tokens, and
 * each of its two connection pools a socket per Node (`nodeSockets`).
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
 * Sockets of each of the process's two pools (main and heartbeat) for `nodes` Nodes: one per
 * Node, never fewer than the pool's default. A real kubelet has a connection of its own (client-go
 * multiplexes its requests over HTTP/2), so one Node's request never waits for another Node's;
 * over HTTP/1.1 a request in flight holds a socket, and each Node has at most one request of a
 * kind in flight: one Pod status write (its status manager's `syncBatch` is sequential), one
 * Lease renewal, one Node status update. With fewer sockets the Nodes' writes queue for them:
 * at an apiserver latency L, P sockets carry only P/L writes a second, whatever the Nodes need.
 * Sockets open on demand and the apiserver closes idle ones, so an idle process holds few.
 */
export function nodeSockets(nodes: number): number {
  return Math.max(DefaultMaxSockets, nodes);
}

/**
 * The heartbeat client's timeout (cmd/kubelet/app/server.go `run`: heartbeatClientConfig.Timeout
 * is nodeStatusUpdateFrequency, at most the node lease duration), so a Lease renewal or Node
 * status update stuck on a dead connection fails in time for the next one instead of holding the
 * Node's heartbeat until the Lease expires.
 */
export function heartbeatTimeoutMs(nodeStatusUpdateFrequencyMs: number, nodeLeaseDurationSeconds: number): number {
  return Math.min(nodeStatusUpdateFrequencyMs, nodeLeaseDurationSeconds * 1000);
}
