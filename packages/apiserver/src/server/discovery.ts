/**
 * API discovery: /api, /api/v1, /apis, /apis/<g>, /apis/<g>/<v> (legacy, k8s.io/apiserver
 * endpoints/discovery) and aggregated discovery (apidiscovery.k8s.io v2 and v2beta1), which
 * kubectl 1.26+ asks for first.
 */
import { apiVersionOf, groupVersions, verbsOfSubresource, type ResourceDef } from "./resources.ts";
import { reviewTable, type ReviewDef } from "./reviews.ts";

/** Review APIs as discovery entries: create-only, no storage (LocalSubjectAccessReview is namespaced). */
function withReviews(table: readonly ResourceDef[], served: readonly ReviewDef[]): readonly ResourceDef[] {
  const reviews = served.map(
    (r) =>
      ({
        ...r,
        namespaced: r.namespaced ?? false,
        shortNames: [],
        categories: [],
        verbs: ["create"],
        subresources: [],
      }) as unknown as ResourceDef,
  );
  return [...table, ...reviews];
}

const serverAddress = [{ clientCIDR: "0.0.0.0/0", serverAddress: "" }];

function versionsOf(table: readonly ResourceDef[], group: string): string[] {
  return groupVersions(table).find((g) => g.group === group)?.versions ?? [];
}

/**
 * kube-aggregator's group order for /apis (apiservice_sort.go: groupPriorityMinimum descending,
 * then the group name), with the priorities kube-apiserver registers its groups at
 * (pkg/controlplane/apiserver/aggregator.go DefaultGenericAPIServicePriorities); a CRD's group
 * is registered at 1000 (crdregistration_controller.go).
 */
const groupPriorityMinimum: Record<string, number> = {
  apps: 17800,
  "events.k8s.io": 17750,
  "authentication.k8s.io": 17700,
  "authorization.k8s.io": 17600,
  autoscaling: 17500,
  batch: 17400,
  "certificates.k8s.io": 17300,
  "networking.k8s.io": 17200,
  policy: 17100,
  "rbac.authorization.k8s.io": 17000,
  "storage.k8s.io": 16800,
  "apiextensions.k8s.io": 16700,
  "admissionregistration.k8s.io": 16700,
  "scheduling.k8s.io": 16600,
  "coordination.k8s.io": 16500,
  "node.k8s.io": 16300,
  "discovery.k8s.io": 16200,
  "flowcontrol.apiserver.k8s.io": 16100,
  "internal.apiserver.k8s.io": 16000,
  "resource.k8s.io": 15900,
  "storagemigration.k8s.io": 15800,
};

/** The named groups of `table` in the aggregator's order. */
function orderedGroups(table: readonly ResourceDef[]): { group: string; versions: string[] }[] {
  const prio = (g: string): number => groupPriorityMinimum[g] ?? 1000;
  return groupVersions(table)
    .filter((g) => g.group !== "")
    .sort((a, b) => prio(b.group) - prio(a.group) || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
}

/** GET /api */
export function legacyAPIVersions(): unknown {
  return { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: serverAddress };
}

function apiGroup(group: string, versions: string[]): Record<string, unknown> {
  const gvs = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions: gvs, preferredVersion: gvs[0] };
}

/** GET /apis */
export function apiGroupList(served: readonly ResourceDef[], reviews: readonly ReviewDef[] = reviewTable): unknown {
  const table = withReviews(served, reviews);
  const groups = orderedGroups(table);
  return { kind: "APIGroupList", apiVersion: "v1", groups: groups.map((g) => apiGroup(g.group, g.versions)) };
}

/** GET /apis/<group>, or undefined for an unknown group. */
export function apiGroupDoc(served: readonly ResourceDef[], group: string, reviews: readonly ReviewDef[] = reviewTable): unknown {
  const table = withReviews(served, reviews);
  const versions = versionsOf(table, group);
  if (group === "" || versions.length === 0) return undefined;
  return { kind: "APIGroup", apiVersion: "v1", ...apiGroup(group, versions) };
}

/** GET /api/v1 or /apis/<g>/<v>, or undefined for an unknown group version. */
export function apiResourceList(
  served: readonly ResourceDef[],
  group: string,
  version: string,
  reviews: readonly ReviewDef[] = reviewTable,
): unknown {
  const table = withReviews(served, reviews);
  const rs = table.filter((r) => r.group === group && r.version === version);
  if (rs.length === 0) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const r of rs) {
    resources.push({
      name: r.resource,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: r.verbs,
      ...(r.shortNames.length > 0 ? { shortNames: r.shortNames } : {}),
      ...(r.categories.length > 0 ? { categories: r.categories } : {}),
    });
    for (const s of r.subresources)
      resources.push({
        name: `${r.resource}/${s}`,
        singularName: "",
        namespaced: r.namespaced,
        // A subresource of another group version (deployments/scale: autoscaling/v1 Scale) names it.
        ...(viewKind(r, s) ? { group: viewKind(r, s)!.group, version: viewKind(r, s)!.version } : {}),
        // pods/binding answers with its own kind (Binding), as upstream's discovery lists it.
        kind: r.subresourceViews?.[s]?.kind ?? r.subresourceCreate?.[s]?.kind ?? r.kind,
        verbs: verbsOfSubresource(r, s),
      });
  }
  return { kind: "APIResourceList", apiVersion: "v1", groupVersion: apiVersionOf(rs[0]!), resources };
}

/** The response kind of a subresource served as another kind (deployments/scale), or undefined. */
function viewKind(r: ResourceDef, s: string): { group: string; version: string; kind: string } | undefined {
  const v = r.subresourceViews?.[s] ?? otherGroupCreate(r, s);
  return v === undefined ? undefined : { group: v.group, version: v.version, kind: v.kind };
}

/** A POST subresource whose kind is of another group version (serviceaccounts/token), or undefined. */
function otherGroupCreate(r: ResourceDef, s: string): { group: string; version: string; kind: string } | undefined {
  const c = r.subresourceCreate?.[s];
  return c?.group !== undefined && c.version !== undefined ? { group: c.group, version: c.version, kind: c.kind } : undefined;
}

function discoveryResource(r: ResourceDef): Record<string, unknown> {
  const responseKind = { group: r.group, version: r.version, kind: r.kind };
  return {
    resource: r.resource,
    responseKind,
    scope: r.namespaced ? "Namespaced" : "Cluster",
    singularResource: r.singular,
    verbs: r.verbs,
    ...(r.shortNames.length > 0 ? { shortNames: r.shortNames } : {}),
    ...(r.categories.length > 0 ? { categories: r.categories } : {}),
    ...(r.subresources.length > 0
      ? {
          subresources: r.subresources.map((s) => ({
            subresource: s,
            responseKind: viewKind(r, s) ?? { ...responseKind, kind: r.subresourceCreate?.[s]?.kind ?? r.kind },
            verbs: verbsOfSubresource(r, s),
          })),
        }
      : {}),
  };
}

/** The aggregated document for /api (legacy = true) or /apis, in apiVersion `apidiscovery.k8s.io/<v>`. */
export function aggregatedDiscovery(
  served: readonly ResourceDef[],
  legacy: boolean,
  discoveryVersion: "v2" | "v2beta1",
  reviews: readonly ReviewDef[] = reviewTable,
): unknown {
  const table = withReviews(served, reviews);
  const groups = legacy ? groupVersions(table).filter((g) => g.group === "") : orderedGroups(table);
  return {
    kind: "APIGroupDiscoveryList",
    apiVersion: `apidiscovery.k8s.io/${discoveryVersion}`,
    metadata: {},
    items: groups.map((g) => ({
      metadata: { name: g.group, creationTimestamp: null },
      versions: g.versions.map((v) => ({
        version: v,
        resources: table.filter((r) => r.group === g.group && r.version === v).map(discoveryResource),
        freshness: "Current",
      })),
    })),
  };
}

/**
 * Which aggregated discovery version the Accept header asks for first, if any: entries look like
 * `application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`.
 */
export function wantsAggregated(accept: string | undefined): "v2" | "v2beta1" | undefined {
  for (const part of (accept ?? "").split(",")) {
    const params = new Map(
      part
        .split(";")
        .slice(1)
        .map((p) => p.trim().split("=") as [string, string]),
    );
    if (params.get("g") === "apidiscovery.k8s.io" && params.get("as") === "APIGroupDiscoveryList") {
      const v = params.get("v");
      if (v === "v2" || v === "v2beta1") return v;
    }
  }
  return undefined;
}

/** The Content-Type the aggregated document must carry for client-go to accept it. */
export function aggregatedContentType(v: "v2" | "v2beta1"): string {
  return `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`;
}
