/**
 * The Go types behind the served kinds, as far as encoding/json's error text names them: the
 * struct type of every object (by JSON path, list items as `[]`) and the integer fields that are
 * int64 (all others are int32). The types are those of k8s.io/api core/v1, discovery/v1,
 * networking/v1(beta1), rbac/v1 and k8s.io/apimachinery meta/v1.
 */

/** ObjectMeta and its parts, under `metadata`, for every kind. */
const objectMeta: Record<string, string> = {
  metadata: "v1.ObjectMeta",
  "metadata.managedFields[]": "v1.ManagedFieldsEntry",
  "metadata.ownerReferences[]": "v1.OwnerReference",
};

const service: Record<string, string> = {
  "": "v1.Service",
  spec: "v1.ServiceSpec",
  "spec.ports[]": "v1.ServicePort",
  "spec.sessionAffinityConfig": "v1.SessionAffinityConfig",
  "spec.sessionAffinityConfig.clientIP": "v1.ClientIPConfig",
  status: "v1.ServiceStatus",
  "status.loadBalancer": "v1.LoadBalancerStatus",
  "status.loadBalancer.ingress[]": "v1.LoadBalancerIngress",
  "status.loadBalancer.ingress[].ports[]": "v1.PortStatus",
  "status.conditions[]": "v1.Condition",
};

const endpoints: Record<string, string> = {
  "": "v1.Endpoints",
  "subsets[]": "v1.EndpointSubset",
  "subsets[].addresses[]": "v1.EndpointAddress",
  "subsets[].addresses[].targetRef": "v1.ObjectReference",
  "subsets[].notReadyAddresses[]": "v1.EndpointAddress",
  "subsets[].notReadyAddresses[].targetRef": "v1.ObjectReference",
  "subsets[].ports[]": "v1.EndpointPort",
};

const event: Record<string, string> = {
  "": "v1.Event",
  involvedObject: "v1.ObjectReference",
  source: "v1.EventSource",
  series: "v1.EventSeries",
  related: "v1.ObjectReference",
};

const namespace: Record<string, string> = {
  "": "v1.Namespace",
  spec: "v1.NamespaceSpec",
  status: "v1.NamespaceStatus",
  "status.conditions[]": "v1.NamespaceCondition",
};

const node: Record<string, string> = {
  "": "v1.Node",
  spec: "v1.NodeSpec",
  status: "v1.NodeStatus",
  "status.addresses[]": "v1.NodeAddress",
  "status.conditions[]": "v1.NodeCondition",
  "status.nodeInfo": "v1.NodeSystemInfo",
};

/** A v1.ContainerState at `path` and its three variants. */
function containerState(path: string): Record<string, string> {
  return {
    [path]: "v1.ContainerState",
    [`${path}.waiting`]: "v1.ContainerStateWaiting",
    [`${path}.running`]: "v1.ContainerStateRunning",
    [`${path}.terminated`]: "v1.ContainerStateTerminated",
  };
}

const pod: Record<string, string> = {
  "": "v1.Pod",
  spec: "v1.PodSpec",
  "spec.containers[]": "v1.Container",
  "spec.containers[].ports[]": "v1.ContainerPort",
  "spec.readinessGates[]": "v1.PodReadinessGate",
  status: "v1.PodStatus",
  "status.containerStatuses[]": "v1.ContainerStatus",
  ...containerState("status.containerStatuses[].state"),
  ...containerState("status.containerStatuses[].lastState"),
  "status.conditions[]": "v1.PodCondition",
  "status.hostIPs[]": "v1.HostIP",
  "status.podIPs[]": "v1.PodIP",
};

const endpointSlice: Record<string, string> = {
  "": "v1.EndpointSlice",
  "endpoints[]": "v1.Endpoint",
  "endpoints[].conditions": "v1.EndpointConditions",
  "endpoints[].targetRef": "v1.ObjectReference",
  "endpoints[].hints": "v1.EndpointHints",
  "endpoints[].hints.forZones[]": "v1.ForZone",
  "endpoints[].hints.forNodes[]": "v1.ForNode",
  "ports[]": "v1.EndpointPort",
};

function serviceCIDR(pkg: string): Record<string, string> {
  return {
    "": `${pkg}.ServiceCIDR`,
    spec: `${pkg}.ServiceCIDRSpec`,
    status: `${pkg}.ServiceCIDRStatus`,
    "status.conditions[]": "v1.Condition",
  };
}

function ipAddress(pkg: string): Record<string, string> {
  return { "": `${pkg}.IPAddress`, spec: `${pkg}.IPAddressSpec`, "spec.parentRef": `${pkg}.ParentReference` };
}

const rbacRole = { "": "v1.Role", "rules[]": "v1.PolicyRule" };
const rbacClusterRole = {
  "": "v1.ClusterRole",
  "rules[]": "v1.PolicyRule",
  aggregationRule: "v1.AggregationRule",
  "aggregationRule.clusterRoleSelectors[]": "v1.LabelSelector",
  "aggregationRule.clusterRoleSelectors[].matchExpressions[]": "v1.LabelSelectorRequirement",
};
const rbacBinding = (kind: string) => ({ "": `v1.${kind}`, "subjects[]": "v1.Subject", roleRef: "v1.RoleRef" });

/** An apps/v1 workload and its pod template (core/v1 types under `spec.template`). */
function workload(kind: string): Record<string, string> {
  const out: Record<string, string> = {
    "": `v1.${kind}`,
    spec: `v1.${kind}Spec`,
    status: `v1.${kind}Status`,
    "status.conditions[]": `v1.${kind}Condition`,
    "spec.selector": "v1.LabelSelector",
    "spec.selector.matchExpressions[]": "v1.LabelSelectorRequirement",
    "spec.template": "v1.PodTemplateSpec",
  };
  for (const [k, v] of Object.entries(objectMeta)) out[`spec.template.${k}`] = v;
  if (kind === "Deployment") {
    out["spec.strategy"] = "v1.DeploymentStrategy";
    out["spec.strategy.rollingUpdate"] = "v1.RollingUpdateDeployment";
  }
  for (const [k, v] of Object.entries(pod)) if (k.startsWith("spec.")) out[`spec.template.${k}`] = v;
  out["spec.template.spec"] = "v1.PodSpec";
  return out;
}

const byKind: Record<string, Record<string, string>> = {
  "v1/Service": service,
  "v1/Endpoints": endpoints,
  "v1/Event": event,
  "v1/Namespace": namespace,
  "v1/Node": node,
  "v1/Pod": pod,
  "apps/v1/Deployment": workload("Deployment"),
  "apps/v1/ReplicaSet": workload("ReplicaSet"),
  "autoscaling/v1/Scale": { "": "v1.Scale", spec: "v1.ScaleSpec", status: "v1.ScaleStatus" },
  "coordination.k8s.io/v1/Lease": { "": "v1.Lease", spec: "v1.LeaseSpec" },
  "discovery.k8s.io/v1/EndpointSlice": endpointSlice,
  "networking.k8s.io/v1/ServiceCIDR": serviceCIDR("v1"),
  "networking.k8s.io/v1beta1/ServiceCIDR": serviceCIDR("v1beta1"),
  "networking.k8s.io/v1/IPAddress": ipAddress("v1"),
  "networking.k8s.io/v1beta1/IPAddress": ipAddress("v1beta1"),
  "rbac.authorization.k8s.io/v1/Role": rbacRole,
  "rbac.authorization.k8s.io/v1/ClusterRole": rbacClusterRole,
  "rbac.authorization.k8s.io/v1/RoleBinding": rbacBinding("RoleBinding"),
  "rbac.authorization.k8s.io/v1/ClusterRoleBinding": rbacBinding("ClusterRoleBinding"),
};

/** int64 fields (metav1's generation, grace period and Condition.observedGeneration); other integers are int32. */
const int64Paths = new Set(["metadata.generation", "metadata.deletionGracePeriodSeconds", "status.conditions[].observedGeneration"]);

/** Fields of type metav1.Time/MicroTime, whose UnmarshalJSON reads a JSON string (or null) only. */
export const timeFields = new Set([
  "creationTimestamp",
  "deletionTimestamp",
  "time",
  "lastTransitionTime",
  "lastProbeTime",
  "lastHeartbeatTime",
  "firstTimestamp",
  "lastTimestamp",
  "eventTime",
  "lastObservedTime",
  "acquireTime",
  "renewTime",
  "startTime",
]);

/** The Go type names of one kind; undefined for kinds not listed (no Go-typed checks for them). */
export interface GoTypes {
  /** The package-qualified struct type at `path` (`v1.ServicePort`), or undefined. */
  struct(path: string): string | undefined;
  /** `int32` or `int64` for the integer field at `path`. */
  int(path: string): "int32" | "int64";
}

const goTypesByKind = new Map<string, GoTypes>();

/** The Go types of `apiVersion`/`kind` (`v1`, `networking.k8s.io/v1beta1`); one object per kind (go-decode keys its plans by it). */
export function goTypesOf(apiVersion: string, kind: string): GoTypes | undefined {
  const key = `${apiVersion}/${kind}`;
  const known = goTypesByKind.get(key);
  if (known !== undefined) return known;
  const table = byKind[key];
  if (table === undefined) return undefined;
  const types: GoTypes = {
    struct: (path) => table[path] ?? objectMeta[path],
    int: (path) => (int64Paths.has(path) ? "int64" : "int32"),
  };
  goTypesByKind.set(key, types);
  return types;
}
