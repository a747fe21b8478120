/**
 * The discovery the namespace deleter needs (client-go discovery: ServerPreferredNamespacedResources,
 * FilteredBy, SupportsAllVerbs, GroupVersionResources, ErrGroupDiscoveryFailed) over legacy discovery
 * (/api, /api/v1, /apis, /apis/{group}/{version}).
 */

/** One request of the deleter: method, absolute API path (with query), optional JSON body; the parsed answer (`RESTClient.request`). */
export type RESTRequest = (method: string, path: string, body?: unknown) => Promise<unknown>;

export interface APIResource {
  name: string;
  namespaced: boolean;
  verbs: string[];
}

export interface APIResourceList {
  groupVersion: string;
  resources: APIResource[];
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** schema.GroupVersionResource.String(): `/v1, Resource=pods`, `discovery.k8s.io/v1, Resource=endpointslices`. */
export const gvrString = (g: GroupVersionResource): string => `${g.group}/${g.version}, Resource=${g.resource}`;

/** Some group versions could not be read; the lists that could are still returned (client-go ErrGroupDiscoveryFailed). */
export class ErrGroupDiscoveryFailed extends Error {
  readonly groups: ReadonlyMap<string, unknown>;
  constructor(groups: ReadonlyMap<string, unknown>) {
    const parts = [...groups].map(([gv, e]) => `${gv}: ${e instanceof Error ? e.message : String(e)}`).sort();
    super(`unable to retrieve the complete list of server APIs: ${parts.join(", ")}`);
    this.name = "ErrGroupDiscoveryFailed";
    this.groups = groups;
  }
}

/** What a discovery call returns: the lists it got, and the error for what it did not. */
export interface DiscoveryResult {
  lists: APIResourceList[];
  error?: Error;
}

interface APIGroup {
  name: string;
  versions: { groupVersion: string; version: string }[];
  preferredVersion?: { version: string };
}

/**
 * upstream ServerPreferredNamespacedResources: every group's resources in its preferred version
 * (another version only for resources the preferred one lacks), subresources left out, namespaced only.
 */
export async function serverPreferredNamespacedResources(request: RESTRequest): Promise<DiscoveryResult> {
  const core = (await request("GET", "/api")) as { versions?: string[] };
  const groups: APIGroup[] = [
    {
      name: "",
      versions: (core.versions ?? []).map((v) => ({ groupVersion: v, version: v })),
      preferredVersion: { version: core.versions?.[0] ?? "" },
    },
    ...(((await request("GET", "/apis")) as { groups?: APIGroup[] }).groups ?? []),
  ];
  const failed = new Map<string, unknown>();
  const chosen = new Map<string, { groupVersion: string; resource: APIResource }>();
  const order: string[] = [];
  for (const g of groups) {
    for (const v of g.versions) {
      let list: APIResourceList;
      try {
        list = (await request("GET", g.name === "" ? `/api/${v.version}` : `/apis/${v.groupVersion}`)) as APIResourceList;
      } catch (e) {
        failed.set(v.groupVersion, e);
        continue;
      }
      if (!order.includes(v.groupVersion)) order.push(v.groupVersion);
      for (const r of list.resources ?? []) {
        if (r.name.includes("/")) continue;
        const gr = `${g.name}/${r.name}`;
        // Only the preferred version overrides a version seen first.
        if (chosen.has(gr) && v.version !== g.preferredVersion?.version) continue;
        chosen.set(gr, { groupVersion: v.groupVersion, resource: r });
      }
    }
  }
  const lists = order.map((gv) => ({
    groupVersion: gv,
    resources: [...chosen.values()].filter((c) => c.groupVersion === gv && c.resource.namespaced).map((c) => c.resource),
  }));
  return { lists, ...(failed.size > 0 ? { error: new ErrGroupDiscoveryFailed(failed) } : {}) };
}

/** upstream FilteredBy(SupportsAllVerbs{verbs}): only resources serving every verb. */
export function filterByVerbs(lists: readonly APIResourceList[], verbs: readonly string[]): APIResourceList[] {
  return lists.map((l) => ({ ...l, resources: l.resources.filter((r) => verbs.every((v) => r.verbs.includes(v))) }));
}

/** upstream schema.ParseGroupVersion. */
export function parseGroupVersion(gv: string): { group: string; version: string } {
  if (gv === "" || gv === "/") return { group: "", version: "" };
  const parts = gv.split("/");
  if (parts.length === 1) return { group: "", version: gv };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  throw new Error(`unexpected GroupVersion string: ${gv}`);
}

/** upstream discovery.GroupVersionResources: every resource of the lists, keyed by gvrString; parse errors aggregated. */
export function groupVersionResources(lists: readonly APIResourceList[]): { gvrs: GroupVersionResource[]; error?: Error } {
  const out = new Map<string, GroupVersionResource>();
  const errs: string[] = [];
  for (const l of lists) {
    let gv: { group: string; version: string };
    try {
      gv = parseGroupVersion(l.groupVersion);
    } catch (e) {
      errs.push((e as Error).message);
      continue;
    }
    for (const r of l.resources) {
      const gvr = { ...gv, resource: r.name };
      out.set(gvrString(gvr), gvr);
    }
  }
  return { gvrs: [...out.values()], ...(errs.length > 0 ? { error: new Error(aggregate(errs)) } : {}) };
}

/** utilerrors.NewAggregate(...).Error(): one message as is, several as `[a, b]`. */
export function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(", ")}]`;
}
