/**
 * Legacy discovery documents for the served resources (upstream:
 * `apiserver/pkg/endpoints/discovery`): /api, /apis, /apis/{group}, /api/v1, /apis/{g}/{v}.
 */
import { apiVersionOf, type ResourceInfo } from "./resources.ts";

const allVerbs = ["create", "delete", "get", "list", "patch", "update", "watch"];

export const apiVersions = {
  kind: "APIVersions",
  versions: ["v1"],
  serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: "127.0.0.1" }],
};

function groupVersions(resources: readonly ResourceInfo[], group: string): { groupVersion: string; version: string }[] {
  const versions = [...new Set(resources.filter((r) => r.group === group).map((r) => r.version))];
  return versions.map((version) => ({ groupVersion: `${group}/${version}`, version }));
}

function apiGroup(resources: readonly ResourceInfo[], name: string): unknown {
  const versions = groupVersions(resources, name);
  return { name, versions, preferredVersion: versions[0] };
}

export function apiGroupList(resources: readonly ResourceInfo[]): unknown {
  const groups = [...new Set(resources.filter((r) => r.group !== "").map((r) => r.group))];
  return { kind: "APIGroupList", apiVersion: "v1", groups: groups.map((g) => apiGroup(resources, g)) };
}

/** The APIGroup document of `/apis/{group}`, or undefined when no resource is in it. */
export function apiGroupDoc(resources: readonly ResourceInfo[], group: string): unknown {
  return resources.some((r) => r.group === group)
    ? { kind: "APIGroup", apiVersion: "v1", ...(apiGroup(resources, group) as object) }
    : undefined;
}

/** The APIResourceList of one group version, or undefined when it serves nothing. */
export function apiResourceList(resources: readonly ResourceInfo[], group: string, version: string): unknown {
  const rs = resources.filter((r) => r.group === group && r.version === version);
  if (rs.length === 0) return undefined;
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion: apiVersionOf(rs[0]!),
    resources: rs.map((r) => ({
      name: r.name,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: r.verbs ?? allVerbs,
      ...(r.shortNames ? { shortNames: r.shortNames } : {}),
    })),
  };
}
