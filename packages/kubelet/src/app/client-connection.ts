/**
 * The kubelet's clients (cmd/kubelet/app/server.go `buildKubeletClientConfig`): the main client
 * with kubeAPIQPS and kubeAPIBurst for registration, informers and Pod status writes, and the
 * heartbeat client (Leases, Node status) with QPS -1, never throttled. A real kubelet has one
 * main client per Node; this process runs N Nodes on one, so its bucket holds N Nodes' tokens.
 */
import { DefaultBurst, DefaultQPS, type ClientConnectionLimits } from "@servicenet/client/rest";

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
