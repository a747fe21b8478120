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
export { runKubelet, nodeNamesOf, type RunOptions, type RunningKubelet } from "./app/run.ts";
export { parseOptions, parseNodeIPFlag, usage, UsageError, type Options } from "./app/options.ts";
export { PodWorkers, type PodWorkersOptions } from "./kubelet/pod-workers.ts";
export { NodeSet, type OwnedNode } from "./kubelet/node-set.ts";
export { podClient, type PodClient } from "./kubelet/pod-client.ts";
export { generatePodStatus, gracePeriodMs, type GeneratedStatus, type StatusInput } from "./kubelet/status/generate.ts";
export { statusEqual, statusPatch, mergeConditions, podConditionsByKubelet } from "./kubelet/status/status-manager.ts";
export { NodeLeaseController, defaultRenewIntervalMs } from "./kubelet/nodelease/controller.ts";
export {
  crashAfterAnnotation,
  exitAfterAnnotation,
  exitCodeAnnotation,
  readinessFailAnnotation,
  stopSecondsAnnotation,
  defaultStopMs,
  simulationOf,
  type Simulation,
} from "./kubelet/simulation.ts";
export { testEnvironmentKubelet, type TestEnvironmentStarter } from "./app/test-environment.ts";
export { newKubeletMetrics, podStartupDurationBuckets, type KubeletMetrics } from "./kubelet/metrics/metrics.ts";
export { listenAndServeReadOnly, type ReadOnlyServer } from "./kubelet/server/server.ts";
