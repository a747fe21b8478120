/**
 * Merge metadata for the types servicenet serves: what the Go struct tags
 * `patchStrategy`/`patchMergeKey` and the `+listType`/`+listMapKey`/`+mapType`
 * markers in k8s.io/api say. Strategic merge patch, server-side apply and the
 * OpenAPI extensions all read this one table, so they cannot disagree.
 */

/** How a list or map field merges. */
export interface FieldMeta {
  /** `+listType`: lists without a marker are atomic, as in structured-merge-diff. */
  listType?: "atomic" | "set" | "map";
  /** `+listMapKey` (in order). */
  listMapKeys?: readonly string[];
  /** `patchStrategy` struct tag for strategic merge patch. */
  patchStrategy?: "merge" | "replace" | "retainKeys" | "merge,retainKeys";
  /** `patchMergeKey` struct tag. */
  patchMergeKey?: string;
  /** `+mapType=atomic` or `+structType=atomic`. */
  mapType?: "atomic" | "granular";
  /** Defaults of list-map key fields (`protocol: TCP`), so an apply that omits them still matches. */
  keyDefaults?: Readonly<Record<string, string | number>>;
}

/** Field paths are dotted JSON names from the object root, list items are transparent. */
export type KindMeta = Readonly<Record<string, FieldMeta>>;

const mapByKey = (key: string, ...more: string[]): FieldMeta => ({
  listType: "map",
  listMapKeys: [key, ...more],
  patchStrategy: "merge",
  patchMergeKey: key,
});
const atomic: FieldMeta = { listType: "atomic" };
const conditions = mapByKey("type");

const objectMeta: KindMeta = {
  "metadata.finalizers": { listType: "set", patchStrategy: "merge" },
  "metadata.ownerReferences": mapByKey("uid"),
  "metadata.managedFields": atomic,
};

const container: KindMeta = {
  ports: { ...mapByKey("containerPort", "protocol"), keyDefaults: { protocol: "TCP" } },
  env: mapByKey("name"),
  envFrom: atomic,
  volumeMounts: mapByKey("mountPath"),
  command: atomic,
  args: atomic,
};

function prefixed(prefix: string, meta: KindMeta): KindMeta {
  return Object.fromEntries(Object.entries(meta).map(([k, v]) => [`${prefix}.${k}`, v]));
}

const service: KindMeta = {
  ...objectMeta,
  "spec.ports": { ...mapByKey("port", "protocol"), keyDefaults: { protocol: "TCP" } },
  "spec.selector": { mapType: "atomic" },
  "spec.clusterIPs": atomic,
  "spec.externalIPs": atomic,
  "spec.ipFamilies": atomic,
  "spec.loadBalancerSourceRanges": atomic,
  "status.conditions": conditions,
  "status.loadBalancer.ingress": atomic,
  "status.loadBalancer.ingress.ports": atomic,
};

const pod: KindMeta = {
  ...objectMeta,
  "spec.containers": mapByKey("name"),
  "spec.initContainers": mapByKey("name"),
  ...prefixed("spec.containers", container),
  ...prefixed("spec.initContainers", container),
  "spec.volumes": { ...mapByKey("name"), patchStrategy: "merge,retainKeys" },
  "spec.tolerations": atomic,
  "spec.hostAliases": mapByKey("ip"),
  "spec.imagePullSecrets": mapByKey("name"),
  "status.conditions": conditions,
  "status.podIPs": mapByKey("ip"),
  "status.hostIPs": { listType: "atomic", patchStrategy: "merge", patchMergeKey: "ip" },
  "status.containerStatuses": atomic,
  "status.initContainerStatuses": atomic,
};

const node: KindMeta = {
  ...objectMeta,
  "spec.podCIDRs": { listType: "set", patchStrategy: "merge" },
  "spec.taints": atomic,
  "status.addresses": { listType: "atomic", patchStrategy: "merge", patchMergeKey: "type" },
  "status.conditions": conditions,
  "status.images": atomic,
  "status.volumesInUse": atomic,
};

/** A pod template's rules: the Pod's under `spec.template` (apps/v1 `PodTemplateSpec`). */
const podTemplate: KindMeta = prefixed(
  "spec.template",
  Object.fromEntries(Object.entries(pod).filter(([k]) => k.startsWith("spec.") || k.startsWith("metadata."))),
);

/** Deployment and ReplicaSet: `kubectl set env` patches one container of the template by name. */
const workload: KindMeta = { ...objectMeta, ...podTemplate, "status.conditions": conditions };

/** Per kind. Kinds not listed get ObjectMeta's rules only. */
export const kindMeta: Readonly<Record<string, KindMeta>> = {
  Service: service,
  Pod: pod,
  Node: node,
  Namespace: { ...objectMeta, "spec.finalizers": atomic, "status.conditions": conditions },
  Endpoints: {
    ...objectMeta,
    subsets: atomic,
    "subsets.addresses": atomic,
    "subsets.notReadyAddresses": atomic,
    "subsets.ports": atomic,
  },
  EndpointSlice: {
    ...objectMeta,
    endpoints: atomic,
    "endpoints.addresses": { listType: "set" },
    ports: atomic,
  },
  ServiceCIDR: { ...objectMeta, "spec.cidrs": atomic, "status.conditions": conditions },
  IPAddress: objectMeta,
  Event: objectMeta,
  Deployment: workload,
  ReplicaSet: workload,
  StatefulSet: { ...workload, "spec.volumeClaimTemplates": atomic },
  DaemonSet: workload,
};

/** The metadata table of `kind`, keyed by dotted field names (ObjectMeta's rules for unlisted kinds). */
export function kindMetaOf(kind: string): KindMeta {
  return kindMeta[kind] ?? objectMeta;
}

/** The metadata of the field at `path` (names only) of `kind`, or undefined. */
export function lookupFieldMeta(kind: string, path: readonly string[]): FieldMeta | undefined {
  return kindMetaOf(kind)[path.join(".")];
}

/** The list type the server-side-apply logic uses: untagged lists are atomic. */
export function listTypeOf(kind: string, path: readonly string[]): "atomic" | "set" | "map" {
  return lookupFieldMeta(kind, path)?.listType ?? "atomic";
}
