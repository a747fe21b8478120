/** @servicenet/kubelet: a simulated kubelet, an API client of the servicenet apiserver over HTTP only. */
export { HostLocalIPAM, rangeFullError } from "./network/host-local.ts";
export {
  defaultSimulatedNodeOptions,
  nodeIPs,
  nodeLease,
  nodeName,
  readyCondition,
  simulatedNode,
  type SimulatedNodeOptions,
} from "./nodestatus/setters.ts";
