/**
 * Everything the apiserver serves, found the way a client finds it: /api, /apis, each group
 * version's resource list (subresources such as `services/status` included), plus the
 * non-resource paths (/openapi/v2, /openapi/v3 and its group versions, /version, health, metrics).
 * Also the snapshot of every stored object that the fuzz compares before and after.
 */
import { getJSON, type RawClient } from "./raw-client.ts";

/** One discovered resource or subresource of one group version. */
export interface Endpoint {
  group: string;
  version: string;
  /** Plural resource name (`services`). */
  resource: string;
  /** `status` for `services/status`, "" for the resource itself. */
  subresource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

export interface Discovered {
  resources: Endpoint[];
  /** Non-resource paths, discovery documents included. */
  nonResource: string[];
  /** Paths that need no token (answered 200 without one). */
  groupVersions: string[];
}

interface APIResource {
  name: string;
  namespaced: boolean;
  kind: string;
  verbs: string[];
}

/** `/api/v1` or `/apis/<group>/<version>`. */
export function gvPath(group: string, version: string): string {
  return group === "" ? `/api/${version}` : `/apis/${group}/${version}`;
}

/** Walks discovery. */
export async function discover(client: RawClient): Promise<Discovered> {
  const gvs: { group: string; version: string }[] = [];
  const core = await getJSON<{ versions: string[] }>(client, "/api");
  for (const v of core.versions) gvs.push({ group: "", version: v });
  const groups = await getJSON<{ groups: { name: string; versions: { version: string }[] }[] }>(client, "/apis");
  for (const g of groups.groups) for (const v of g.versions) gvs.push({ group: g.name, version: v.version });
  const resources: Endpoint[] = [];
  for (const { group, version } of gvs) {
    const list = await getJSON<{ resources: APIResource[] }>(client, gvPath(group, version));
    for (const r of list.resources) {
      const [resource = "", subresource = ""] = r.name.split("/");
      resources.push({ group, version, resource, subresource, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs });
    }
  }
  const v3 = await getJSON<{ paths: Record<string, unknown> }>(client, "/openapi/v3");
  const nonResource = [
    "/api",
    "/apis",
    ...groups.groups.map((g) => `/apis/${g.name}`),
    ...gvs.map((gv) => gvPath(gv.group, gv.version)),
    "/openapi/v2",
    "/openapi/v3",
    ...Object.keys(v3.paths).map((p) => `/openapi/v3/${p}`),
    "/version",
    "/healthz",
    "/livez",
    "/readyz",
    "/metrics",
  ];
  return { resources, nonResource, groupVersions: gvs.map((gv) => gvPath(gv.group, gv.version)) };
}

/** `<gv>/<resource>/<namespace>/<name>` → resourceVersion of every object a list returns. */
export type Snapshot = Map<string, string>;

/** Lists every listable resource across all namespaces. */
export async function snapshot(client: RawClient, resources: readonly Endpoint[]): Promise<Snapshot> {
  const out: Snapshot = new Map();
  for (const r of resources) {
    if (r.subresource !== "" || !r.verbs.includes("list")) continue;
    const list = await getJSON<{ items: { metadata: { namespace?: string; name: string; resourceVersion: string } }[] }>(
      client,
      `${gvPath(r.group, r.version)}/${r.resource}`,
    );
    for (const i of list.items) {
      // The apiserver renews its own identity Lease every 10 s (upstream's APIServerIdentity): not a client's write.
      if (r.resource === "leases" && i.metadata.namespace === "kube-system" && i.metadata.name.startsWith("apiserver-")) continue;
      out.set(`${gvPath(r.group, r.version)}/${r.resource}/${i.metadata.namespace ?? ""}/${i.metadata.name}`, i.metadata.resourceVersion);
    }
  }
  return out;
}

/** Human-readable differences between two snapshots (empty when equal). */
export function diffSnapshots(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [k, v] of before) {
    const w = after.get(k);
    if (w === undefined) out.push(`removed ${k}`);
    else if (w !== v) out.push(`changed ${k} ${v} -> ${w}`);
  }
  for (const k of after.keys()) if (!before.has(k)) out.push(`added ${k}`);
  return out;
}
