/** @servicenet/controller-manager: an API client of the servicenet apiserver; it talks to it over HTTP only. */
export * from "./framework/index.ts";
export {
  computeEndpoints,
  desiredSubsets,
  podToEndpointAddress,
  truncateSubsets,
  endpointsOverCapacity,
  endpointsMaxCapacity,
} from "./endpoint/endpoints.ts";
export type { EndpointsPlan, EndpointsInput } from "./endpoint/endpoints.ts";
export { EndpointsController } from "./endpoint/endpoints-controller.ts";
export type { EndpointsClient, EndpointsControllerDeps } from "./endpoint/endpoints-controller.ts";
export { endpointsClient } from "./endpoint/endpoints-client.ts";
export { reconcile } from "./endpointslice/reconciler.ts";
export type { SliceChanges, ReconcileInput } from "./endpointslice/reconciler.ts";
export { addressTypesForService, podToEndpoint, newEndpointSlice } from "./endpointslice/utils.ts";
export type { SliceAddressType } from "./endpointslice/utils.ts";
export {
  EndpointSliceController,
  StaleInformerCacheError,
  PodsSkippedError,
  endpointSliceControllerEventSource,
} from "./endpointslice/endpointslice-controller.ts";
export { reconcileSliceHints, hintsEnabled, validTrafficDistribution } from "./endpointslice/hints.ts";
export type { HintOptions } from "./endpointslice/hints.ts";
export { reconcileHints } from "./endpointslice/trafficdist/trafficdist.ts";
export { TopologyCache } from "./endpointslice/topologycache/topology-cache.ts";
export type { SliceInfo } from "./endpointslice/topologycache/slice-info.ts";
export type { EventBuilder } from "./endpointslice/topologycache/event.ts";
export type { EndpointSliceClient, EndpointSliceControllerDeps } from "./endpointslice/endpointslice-controller.ts";
export { endpointSliceClient } from "./endpointslice/endpointslice-client.ts";
export { decideServiceCIDR, orphanedIPs, deletionGracePeriodMs } from "./servicecidrs/decision.ts";
export type { ServiceCIDRDecision, ServiceCIDRDecisionInput } from "./servicecidrs/decision.ts";
export { ServiceCIDRController } from "./servicecidrs/servicecidrs-controller.ts";
export type { ServiceCIDRClient, ServiceCIDRControllerDeps } from "./servicecidrs/servicecidrs-controller.ts";
export { serviceCIDRClient } from "./servicecidrs/servicecidrs-client.ts";
export { NamespaceController, namespaceDeletionGracePeriodMs } from "./namespace/namespace-controller.ts";
export type { NamespaceControllerDeps } from "./namespace/namespace-controller.ts";
export { NamespacedResourcesDeleter, ResourcesRemainingError, finalized } from "./namespace/deletion/namespaced-resources-deleter.ts";
export type { NamespacedResourcesDeleterOptions } from "./namespace/deletion/namespaced-resources-deleter.ts";
export { ErrGroupDiscoveryFailed, serverPreferredNamespacedResources } from "./namespace/deletion/discovery.ts";
export type { APIResourceList, DiscoveryResult, GroupVersionResource } from "./namespace/deletion/discovery.ts";
export type { RESTRequest } from "./namespace/deletion/discovery.ts";
export { TriggerTimeTracker, endpointsLastChangeTriggerTime } from "./util/endpoint/trigger-time-tracker.ts";
export { makeInformers } from "./app/informers.ts";
export type { InformerSet } from "./app/informers.ts";
export { runControllerManager, ControllerStartError } from "./app/run.ts";
export {
  CidrSet,
  CIDRSetError,
  errCIDRRangeNoCIDRsRemaining,
  errCIDRSetSubNetTooBig,
} from "./controller/nodeipam/ipam/cidrset/cidr-set.ts";
export { RangeAllocator, cidrUpdateWorkers, cidrUpdateRetries } from "./controller/nodeipam/ipam/range-allocator.ts";
export type { CIDRAllocatorParams, NodeCIDRClient, RangeAllocatorDeps } from "./controller/nodeipam/ipam/range-allocator.ts";
export { nodeCIDRClient, nodeCIDRsPatch } from "./controller/nodeipam/ipam/node-cidr-client.ts";
export { validateNodeIpamParams } from "./controller/nodeipam/node-ipam-controller.ts";
export { nodeIpamParams, processCIDRs, validateCIDRs, setNodeCIDRMaskSizes, startNodeIpamController } from "./app/core.ts";
export type { NodeIpamOptions, NodeIpamDeps } from "./app/core.ts";
export {
  testEnvironmentControllers,
  type TestEnvironmentControllerName,
  type TestEnvironmentControllerOptions,
  type TestEnvironmentControllers,
} from "./app/test-environment.ts";
export type { RunOptions } from "./app/run.ts";

export { parseOptions, knownControllers, UsageError } from "./app/options.ts";
export type { Options, ControllerName } from "./app/options.ts";

// pkg/controller/controller_utils.go's pieces the replicaset and deployment controllers build on.
export {
  activePodsLess,
  defaultRankingGates,
  deletionCost,
  isPodActive,
  podDeletionCostAnnotation,
  podsToDelete,
  ranksByRelatedPodsOnSameNode,
} from "./controller/controller-utils.ts";
export type { RankingGates } from "./controller/controller-utils.ts";
export { ControllerExpectations, UIDTrackingControllerExpectations, expectationsTimeoutMs } from "./controller/controller-expectations.ts";

// pkg/controller/replicaset and the controller_utils / controller_ref_manager pieces it uses.
export { ReplicaSetController, burstReplicas } from "./replicaset/replica-set.ts";
export {
  filterActivePods,
  getIndirectlyRelatedPods,
  getPodReplicaSets,
  getReplicaSetsWithSameController,
  podKey,
} from "./replicaset/related.ts";
export type { ReplicaSetControllerDeps } from "./replicaset/replica-set.ts";
export { calculateStatus, updateReplicaSetStatus, replicaSetReplicaFailure } from "./replicaset/replica-set-utils.ts";
export type { ReplicaSetClient } from "./replicaset/replica-set-utils.ts";
export { getPodsToDelete, manageReplicas } from "./replicaset/manage-replicas.ts";
export { slowStartBatch } from "./replicaset/slow-start-batch.ts";
export { podClient, replicaSetClient } from "./replicaset/replicaset-client.ts";
export { RealPodControl, getPodFromTemplate, validateControllerRef, slowStartInitialBatchSize } from "./controller/pod-control.ts";
export type { ControllerObject, PodClient, PodControlInterface } from "./controller/pod-control.ts";
export {
  PodControllerRefManager,
  getControllerOf,
  newControllerRef,
  recheckDeletionTimestamp,
  ownerRefControllerPatch,
  deleteOwnerRefPatch,
} from "./controller/controller-ref-manager.ts";
export { NodeLifecycleController, nodeLifecycleControllerName } from "./controller/nodelifecycle/node-lifecycle-controller.ts";
export type { NodeLifecycleDeps } from "./controller/nodelifecycle/node-lifecycle-controller.ts";
export { defaultNodeLifecycleConfig } from "./controller/nodelifecycle/config.ts";
export type { NodeLifecycleConfig } from "./controller/nodelifecycle/config.ts";
export { nodeLifecycleClient } from "./controller/nodelifecycle/node-lifecycle-client.ts";
export type { NodeLifecycleClient } from "./controller/util/node/controller-utils.ts";
export { TaintEvictionController, taintEvictionControllerName } from "./controller/tainteviction/taint-eviction.ts";
export type { TaintEvictionDeps } from "./controller/tainteviction/taint-eviction.ts";
export { taintEvictionClient } from "./controller/tainteviction/taint-eviction-client.ts";
export type { TaintEvictionClient } from "./controller/tainteviction/taint-eviction-client.ts";
export { TimedWorkerQueue } from "./controller/tainteviction/timed-workers.ts";
