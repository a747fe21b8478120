/**
 * Which resources the garbage collector watches, and the REST mapping of owner references
 * (upstream garbagecollector.go GetDeletableResources over discovery's ServerPreferredResources,
 * and the RESTMapper that `apiResource(apiVersion, kind)` asks).
 */
import type { RESTClient } from "@servicenet/client/rest";

/** One served resource of one group version. */
export interface APIResource {
  group: string;
  version: string;
  /** Plural name, `services`. */
  resource: string;
  kind: string;
  namespaced: boolean;
}

interface ResourceList {
  groupVersion: string;
  resources: { name: string; kind: string; namespaced: boolean; verbs: string[] }[];
}

interface GroupList {
  groups: { name: string; versions: { groupVersion: string }[]; preferredVersion?: { groupVersion: string } }[];
}

/** The GC's default ignored resources (config/v1alpha1 defaults.go): events in both groups. */
const ignoredResources = new Set(["/events", "events.k8s.io/events"]);

/** The API path of a group version: `/api/v1` or `/apis/g/v`. */
export function groupVersionPath(apiVersion: string): string {
  return apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

/** The collection path of `r` in `namespace` (cluster-wide when empty or cluster-scoped). */
export function resourcePath(r: APIResource, namespace: string, name?: string): string {
  const gv = groupVersionPath(r.group === "" ? r.version : `${r.group}/${r.version}`);
  const ns = r.namespaced && namespace !== "" ? `/namespaces/${encodeURIComponent(namespace)}` : "";
  return `${gv}${ns}/${r.resource}${name !== undefined ? `/${encodeURIComponent(name)}` : ""}`;
}

/** Discovery's answer: the resources to monitor, and a mapper from apiVersion + kind. */
export interface Discovery {
  /** Deletable resources (verbs delete, list, watch) of each group's preferred version, minus the ignored ones. */
  deletable: APIResource[];
  /** The resource of `apiVersion` + `kind` (any served version), or undefined when not served. */
  mapping(apiVersion: string, kind: string): APIResource | undefined;
}

/** Reads /api and /apis once. */
export async function discover(client: Pick<RESTClient, "request">): Promise<Discovery> {
  const byGVK = new Map<string, APIResource>();
  const deletable: APIResource[] = [];
  const gvs: { gv: string; preferred: boolean }[] = [];
  const core = await client.request<{ versions: string[] }>("GET", "/api");
  core.versions.forEach((v, i) => gvs.push({ gv: v, preferred: i === 0 }));
  const groups = await client.request<GroupList>("GET", "/apis");
  for (const g of groups.groups) {
    const preferred = g.preferredVersion?.groupVersion ?? g.versions[0]?.groupVersion;
    for (const v of g.versions) gvs.push({ gv: v.groupVersion, preferred: v.groupVersion === preferred });
  }
  for (const { gv, preferred } of gvs) {
    const list = await client.request<ResourceList>("GET", groupVersionPath(gv));
    const [group, version] = gv.includes("/") ? (gv.split("/") as [string, string]) : ["", gv];
    for (const r of list.resources) {
      if (r.name.includes("/")) continue; // subresources
      const res: APIResource = { group, version, resource: r.name, kind: r.kind, namespaced: r.namespaced };
      byGVK.set(`${gv}|${r.kind}`, res);
      const verbs = new Set(r.verbs);
      if (preferred && verbs.has("delete") && verbs.has("list") && verbs.has("watch") && !ignoredResources.has(`${group}/${r.name}`))
        deletable.push(res);
    }
  }
  return { deletable, mapping: (apiVersion, kind) => byGVK.get(`${apiVersion}|${kind}`) };
}
