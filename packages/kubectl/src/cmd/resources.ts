/**
 * The resources the CLI knows, with kubectl's names and short names, and the
 * REST paths they live under (what kubectl's RESTMapper would resolve from
 * discovery; the set is fixed here, so no discovery round trip is made).
 */

export interface Resource {
  /** Plural REST name, e.g. "services". */
  name: string;
  /** Group ("" for the core group). */
  group: string;
  version: string;
  kind: string;
  namespaced: boolean;
  /** Every spelling kubectl accepts: singular, plural, short names, name.group. */
  aliases: readonly string[];
}

export const resources: readonly Resource[] = [
  { name: "services", group: "", version: "v1", kind: "Service", namespaced: true, aliases: ["service", "services", "svc"] },
  { name: "endpoints", group: "", version: "v1", kind: "Endpoints", namespaced: true, aliases: ["endpoints", "ep"] },
  {
    name: "endpointslices",
    group: "discovery.k8s.io",
    version: "v1",
    kind: "EndpointSlice",
    namespaced: true,
    aliases: ["endpointslice", "endpointslices"],
  },
  {
    name: "servicecidrs",
    group: "networking.k8s.io",
    version: "v1",
    kind: "ServiceCIDR",
    namespaced: false,
    aliases: ["servicecidr", "servicecidrs"],
  },
  {
    name: "ipaddresses",
    group: "networking.k8s.io",
    version: "v1",
    kind: "IPAddress",
    namespaced: false,
    aliases: ["ipaddress", "ipaddresses", "ip"],
  },
  // networking.k8s.io/v1 Ingress, IngressClass and NetworkPolicy.
  {
    name: "ingresses",
    group: "networking.k8s.io",
    version: "v1",
    kind: "Ingress",
    namespaced: true,
    aliases: ["ingress", "ingresses", "ing"],
  },
  {
    name: "ingressclasses",
    group: "networking.k8s.io",
    version: "v1",
    kind: "IngressClass",
    namespaced: false,
    aliases: ["ingressclass", "ingressclasses"],
  },
  {
    name: "networkpolicies",
    group: "networking.k8s.io",
    version: "v1",
    kind: "NetworkPolicy",
    namespaced: true,
    aliases: ["networkpolicy", "networkpolicies", "netpol"],
  },
  { name: "events", group: "", version: "v1", kind: "Event", namespaced: true, aliases: ["event", "events", "ev"] },
  { name: "pods", group: "", version: "v1", kind: "Pod", namespaced: true, aliases: ["pod", "pods", "po"] },
  { name: "nodes", group: "", version: "v1", kind: "Node", namespaced: false, aliases: ["node", "nodes", "no"] },
  { name: "namespaces", group: "", version: "v1", kind: "Namespace", namespaced: false, aliases: ["namespace", "namespaces", "ns"] },
  {
    name: "poddisruptionbudgets",
    group: "policy",
    version: "v1",
    kind: "PodDisruptionBudget",
    namespaced: true,
    aliases: ["poddisruptionbudget", "poddisruptionbudgets", "pdb"],
  },
  ...rbac("roles", "Role", true),
  ...rbac("clusterroles", "ClusterRole", false),
  ...rbac("rolebindings", "RoleBinding", true),
  ...rbac("clusterrolebindings", "ClusterRoleBinding", false),
];

/** An rbac.authorization.k8s.io/v1 resource: singular and plural, no short names (as discovery has them). */
function rbac(name: string, kind: string, namespaced: boolean): Resource[] {
  const singular = kind.toLowerCase();
  return [{ name, group: "rbac.authorization.k8s.io", version: "v1", kind, namespaced, aliases: [singular, name] }];
}

/** The resource serving `apiVersion` + `kind` (what kubectl's RESTMapper answers for a manifest). */
export function resourceForKind(apiVersion: string, kind: string): Resource | undefined {
  const slash = apiVersion.indexOf("/");
  const group = slash < 0 ? "" : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return resources.find((r) => r.kind === kind && r.group === group && r.version === version);
}

/** "service" or "servicecidr.networking.k8s.io": how kubectl names an object's type in `created`/`deleted` lines. */
export function kindName(r: Resource): string {
  const k = r.kind.toLowerCase();
  return r.group === "" ? k : `${k}.${r.group}`;
}

/** Finds a resource by any accepted spelling (case-insensitive, optionally "name.group"). */
export function findResource(arg: string): Resource | undefined {
  const a = arg.toLowerCase();
  return resources.find((r) => r.aliases.includes(a) || (r.group !== "" && r.aliases.some((x) => `${x}.${r.group}` === a)));
}

/** "services" or "servicecidrs.networking.k8s.io": the group-resource string in API errors. */
export function groupResource(r: Resource): string {
  return r.group === "" ? r.name : `${r.name}.${r.group}`;
}

/**
 * The REST path of a collection or one object. An undefined namespace on a
 * namespaced resource means all namespaces.
 */
export function resourcePath(r: Resource, namespace: string | undefined, name?: string): string {
  const base = r.group === "" ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const ns = r.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : "";
  const obj = name === undefined ? "" : `/${encodeURIComponent(name)}`;
  return `${base}${ns}/${r.name}${obj}`;
}

/** The resource by REST name; for internal use where the name is a literal. */
export function mustResource(name: string): Resource {
  const r = resources.find((x) => x.name === name);
  if (r === undefined) throw new Error(`unknown resource ${name}`);
  return r;
}
