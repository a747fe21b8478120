/** What the fake apiserver serves: one entry per resource, as discovery describes it. */

export interface ResourceInfo {
  /** API group, "" for the core group. */
  group: string;
  version: string;
  /** The plural resource name of the URL path. */
  name: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames?: readonly string[];
  /** Discovery verbs (default: every verb the fake serves). */
  verbs?: readonly string[];
  /** PUT of a missing object creates it, as upstream's Endpoints and Lease strategies allow. */
  allowCreateOnUpdate?: boolean;
}

/** `pods` or `endpointslices.discovery.k8s.io`, as upstream's GroupResource.String() prints it. */
export const groupResource = (r: ResourceInfo): string => (r.group === "" ? r.name : `${r.name}.${r.group}`);

export const apiVersionOf = (r: ResourceInfo): string => (r.group === "" ? r.version : `${r.group}/${r.version}`);

/** The Service-networking resources servicenet's components and CLIs touch. */
export const defaultResources: readonly ResourceInfo[] = [
  { group: "", version: "v1", name: "services", singular: "service", kind: "Service", namespaced: true, shortNames: ["svc"] },
  {
    group: "",
    version: "v1",
    name: "endpoints",
    singular: "endpoints",
    kind: "Endpoints",
    namespaced: true,
    shortNames: ["ep"],
    allowCreateOnUpdate: true,
  },
  { group: "", version: "v1", name: "events", singular: "event", kind: "Event", namespaced: true, shortNames: ["ev"] },
  { group: "", version: "v1", name: "pods", singular: "pod", kind: "Pod", namespaced: true, shortNames: ["po"] },
  { group: "", version: "v1", name: "nodes", singular: "node", kind: "Node", namespaced: false, shortNames: ["no"] },
  { group: "", version: "v1", name: "namespaces", singular: "namespace", kind: "Namespace", namespaced: false, shortNames: ["ns"] },
  { group: "", version: "v1", name: "configmaps", singular: "configmap", kind: "ConfigMap", namespaced: true, shortNames: ["cm"] },
  { group: "discovery.k8s.io", version: "v1", name: "endpointslices", singular: "endpointslice", kind: "EndpointSlice", namespaced: true },
  { group: "networking.k8s.io", version: "v1", name: "servicecidrs", singular: "servicecidr", kind: "ServiceCIDR", namespaced: false },
  {
    group: "networking.k8s.io",
    version: "v1",
    name: "ipaddresses",
    singular: "ipaddress",
    kind: "IPAddress",
    namespaced: false,
    shortNames: ["ip"],
  },
  {
    group: "coordination.k8s.io",
    version: "v1",
    name: "leases",
    singular: "lease",
    kind: "Lease",
    namespaced: true,
    allowCreateOnUpdate: true,
  },
];

const rbac = "rbac.authorization.k8s.io";

/** rbac.authorization.k8s.io/v1, for tests of RBAC clients (not served unless a test asks for it). */
export const rbacResources: readonly ResourceInfo[] = [
  { group: rbac, version: "v1", name: "roles", singular: "role", kind: "Role", namespaced: true },
  { group: rbac, version: "v1", name: "rolebindings", singular: "rolebinding", kind: "RoleBinding", namespaced: true },
  { group: rbac, version: "v1", name: "clusterroles", singular: "clusterrole", kind: "ClusterRole", namespaced: false },
  {
    group: rbac,
    version: "v1",
    name: "clusterrolebindings",
    singular: "clusterrolebinding",
    kind: "ClusterRoleBinding",
    namespaced: false,
  },
];
