/**
 * The shared informers the controllers use, one per resource, each a LIST
 * through client-node's typed API (turned into plain JSON) plus a WATCH on
 * the same path.
 */
import {
  AppsV1Api,
  BatchV1Api,
  CoordinationV1Api,
  CoreV1Api,
  DiscoveryV1Api,
  NetworkingV1Api,
  PolicyV1Api,
  RbacAuthorizationV1Api,
  type KubeConfig,
} from "@kubernetes/client-node";
import {
  endpointSliceControllerName,
  endpointSliceManagedByLabel,
  endpointSliceMirroringControllerName,
  type ClusterRole,
  type ConfigMap,
  type Deployment,
  type EndpointSlice,
  type Endpoints,
  type IPAddress,
  type Job,
  type CronJob,
  type Lease,
  type Namespace,
  type Node,
  type Pod,
  type ReplicaSet,
  type Secret,
  type StatefulSet,
  type ControllerRevision,
  type DaemonSet,
  type Service,
  type ServiceAccount,
  type ServiceCIDR,
} from "@servicenet/api";
import type { PodDisruptionBudget } from "@servicenet/api/policy/v1";
import type { Clock } from "@servicenet/component-base/clock";
import { SharedInformer, type PlainList } from "@servicenet/client/tools/cache";
import type { Logger } from "@servicenet/component-base/logs";
import { toPlain } from "@servicenet/client/rest";
import {
  controllerUIDIndex,
  controllerUIDIndexFunc,
  podControllerUIDIndex,
  podControllerUIDIndexFunc,
  podNodeNameIndex,
  podNodeNameIndexFunc,
} from "../controller/pod-index.ts";

export interface InformerSet {
  services: SharedInformer<Service>;
  pods: SharedInformer<Pod>;
  endpoints: SharedInformer<Endpoints>;
  endpointSlices: SharedInformer<EndpointSlice>;
  /** EndpointSlices of the mirroring controller (its own managed-by value). */
  mirroredEndpointSlices: SharedInformer<EndpointSlice>;
  nodes: SharedInformer<Node>;
  serviceCIDRs: SharedInformer<ServiceCIDR>;
  ipAddresses: SharedInformer<IPAddress>;
  namespaces: SharedInformer<Namespace>;
  clusterRoles: SharedInformer<ClusterRole>;
  deployments: SharedInformer<Deployment>;
  replicaSets: SharedInformer<ReplicaSet>;
  jobs: SharedInformer<Job>;
  cronJobs: SharedInformer<CronJob>;
  statefulSets: SharedInformer<StatefulSet>;
  controllerRevisions: SharedInformer<ControllerRevision>;
  daemonSets: SharedInformer<DaemonSet>;
  serviceAccounts: SharedInformer<ServiceAccount>;
  secrets: SharedInformer<Secret>;
  configMaps: SharedInformer<ConfigMap>;
  /** The Nodes' heartbeat Leases (kube-node-lease), for the node lifecycle controller. */
  nodeLeases: SharedInformer<Lease>;
  podDisruptionBudgets: SharedInformer<PodDisruptionBudget>;
}

/** kube-controller-manager's --namespace-sync-period default: deleting namespaces are looked at again this often. */
export const namespaceSyncPeriodMs = 5 * 60_000;

export interface InformerOptions {
  resyncMs?: number;
  clock?: Clock;
  logger?: Logger;
}

/** Builds (does not start) every informer of the controller-manager. */
export function makeInformers(kc: KubeConfig, o: InformerOptions = {}): InformerSet {
  const core = kc.makeApiClient(CoreV1Api);
  const discovery = kc.makeApiClient(DiscoveryV1Api);
  const net = kc.makeApiClient(NetworkingV1Api);
  const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  const apps = kc.makeApiClient(AppsV1Api);
  const coordination = kc.makeApiClient(CoordinationV1Api);
  const policy = kc.makeApiClient(PolicyV1Api);
  const batch = kc.makeApiClient(BatchV1Api);
  const base = {
    kubeConfig: kc,
    ...(o.resyncMs !== undefined ? { resyncMs: o.resyncMs } : {}),
    ...(o.clock ? { clock: o.clock } : {}),
    ...(o.logger ? { logger: o.logger } : {}),
  };
  const plain =
    <T>(type: string, list: () => Promise<unknown>) =>
    async (): Promise<PlainList<T>> =>
      toPlain<PlainList<T>>(await list(), type);
  const managedBy = `${endpointSliceManagedByLabel}=${endpointSliceControllerName}`;
  const mirroredBy = `${endpointSliceManagedByLabel}=${endpointSliceMirroringControllerName}`;
  return {
    services: new SharedInformer({
      ...base,
      path: "/api/v1/services",
      list: plain("V1ServiceList", () => core.listServiceForAllNamespaces()),
    }),
    // Indexed as the replicaset controller's AddPodControllerUIDIndexer and controllerUIDIndex do (built in: no AddIndexers here).
    pods: new SharedInformer<Pod>({
      ...base,
      path: "/api/v1/pods",
      indexers: { [podControllerUIDIndex]: podControllerUIDIndexFunc, [podNodeNameIndex]: podNodeNameIndexFunc },
      list: plain("V1PodList", () => core.listPodForAllNamespaces()),
    }),
    endpoints: new SharedInformer({
      ...base,
      path: "/api/v1/endpoints",
      list: plain("V1EndpointsList", () => core.listEndpointsForAllNamespaces()),
    }),
    endpointSlices: new SharedInformer({
      ...base,
      path: "/apis/discovery.k8s.io/v1/endpointslices",
      labelSelector: managedBy,
      list: plain("V1EndpointSliceList", () => discovery.listEndpointSliceForAllNamespaces({ labelSelector: managedBy })),
    }),
    mirroredEndpointSlices: new SharedInformer({
      ...base,
      path: "/apis/discovery.k8s.io/v1/endpointslices",
      labelSelector: mirroredBy,
      list: plain("V1EndpointSliceList", () => discovery.listEndpointSliceForAllNamespaces({ labelSelector: mirroredBy })),
    }),
    nodes: new SharedInformer({ ...base, path: "/api/v1/nodes", list: plain("V1NodeList", () => core.listNode()) }),
    serviceCIDRs: new SharedInformer({
      ...base,
      path: "/apis/networking.k8s.io/v1/servicecidrs",
      list: plain("V1ServiceCIDRList", () => net.listServiceCIDR()),
    }),
    namespaces: new SharedInformer({
      ...base,
      resyncMs: o.resyncMs ?? namespaceSyncPeriodMs,
      path: "/api/v1/namespaces",
      list: plain("V1NamespaceList", () => core.listNamespace()),
    }),
    ipAddresses: new SharedInformer({
      ...base,
      path: "/apis/networking.k8s.io/v1/ipaddresses",
      list: plain("V1IPAddressList", () => net.listIPAddress()),
    }),
    serviceAccounts: new SharedInformer({
      ...base,
      path: "/api/v1/serviceaccounts",
      list: plain("V1ServiceAccountList", () => core.listServiceAccountForAllNamespaces()),
    }),
    secrets: new SharedInformer({
      ...base,
      path: "/api/v1/secrets",
      list: plain("V1SecretList", () => core.listSecretForAllNamespaces()),
    }),
    configMaps: new SharedInformer({
      ...base,
      path: "/api/v1/configmaps",
      list: plain("V1ConfigMapList", () => core.listConfigMapForAllNamespaces()),
    }),
    nodeLeases: new SharedInformer({
      ...base,
      path: "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases",
      list: plain("V1LeaseList", () => coordination.listNamespacedLease({ namespace: "kube-node-lease" })),
    }),
    clusterRoles: new SharedInformer({
      ...base,
      path: "/apis/rbac.authorization.k8s.io/v1/clusterroles",
      list: plain("V1ClusterRoleList", () => rbac.listClusterRole()),
    }),
    deployments: new SharedInformer({
      ...base,
      path: "/apis/apps/v1/deployments",
      list: plain("V1DeploymentList", () => apps.listDeploymentForAllNamespaces()),
    }),
    podDisruptionBudgets: new SharedInformer<PodDisruptionBudget>({
      ...base,
      path: "/apis/policy/v1/poddisruptionbudgets",
      list: plain("V1PodDisruptionBudgetList", () => policy.listPodDisruptionBudgetForAllNamespaces()),
    }),
    replicaSets: new SharedInformer<ReplicaSet>({
      ...base,
      path: "/apis/apps/v1/replicasets",
      indexers: { [controllerUIDIndex]: controllerUIDIndexFunc },
      list: plain("V1ReplicaSetList", () => apps.listReplicaSetForAllNamespaces()),
    }),
    jobs: new SharedInformer<Job>({
      ...base,
      path: "/apis/batch/v1/jobs",
      list: plain("V1JobList", () => batch.listJobForAllNamespaces()),
    }),
    cronJobs: new SharedInformer<CronJob>({
      ...base,
      path: "/apis/batch/v1/cronjobs",
      list: plain("V1CronJobList", () => batch.listCronJobForAllNamespaces()),
    }),
    statefulSets: new SharedInformer<StatefulSet>({
      ...base,
      path: "/apis/apps/v1/statefulsets",
      list: plain("V1StatefulSetList", () => apps.listStatefulSetForAllNamespaces()),
    }),
    daemonSets: new SharedInformer<DaemonSet>({
      ...base,
      path: "/apis/apps/v1/daemonsets",
      list: plain("V1DaemonSetList", () => apps.listDaemonSetForAllNamespaces()),
    }),
    controllerRevisions: new SharedInformer<ControllerRevision>({
      ...base,
      path: "/apis/apps/v1/controllerrevisions",
      list: plain("V1ControllerRevisionList", () => apps.listControllerRevisionForAllNamespaces()),
    }),
  };
}

/**
 * The InformerSet member watching every object of a group/version/resource (no selector), as
 * the typed SharedInformerFactory's ForResource knows it; the selector-filtered EndpointSlice
 * informers watch only part of theirs and are no answer.
 */
const typedResources: Record<string, keyof InformerSet> = {
  "/v1/services": "services",
  "/v1/pods": "pods",
  "/v1/endpoints": "endpoints",
  "/v1/nodes": "nodes",
  "/v1/namespaces": "namespaces",
  "/v1/serviceaccounts": "serviceAccounts",
  "/v1/configmaps": "configMaps",
  "/v1/secrets": "secrets",
  "networking.k8s.io/v1/servicecidrs": "serviceCIDRs",
  "networking.k8s.io/v1/ipaddresses": "ipAddresses",
  "rbac.authorization.k8s.io/v1/clusterroles": "clusterRoles",
  "apps/v1/deployments": "deployments",
  "apps/v1/replicasets": "replicaSets",
  "policy/v1/poddisruptionbudgets": "podDisruptionBudgets",
  "batch/v1/jobs": "jobs",
  "batch/v1/cronjobs": "cronJobs",
  "apps/v1/statefulsets": "statefulSets",
  "apps/v1/controllerrevisions": "controllerRevisions",
  "apps/v1/daemonsets": "daemonSets",
};

/** The key of the InformerSet's informer of all of `r`, or undefined (informerfactory.ForResource's typed lookup). */
export function typedInformerKey(r: { group: string; version: string; resource: string }): keyof InformerSet | undefined {
  return typedResources[`${r.group}/${r.version}/${r.resource}`];
}
