/** client-go discovery as the namespace deleter uses it (ServerPreferredNamespacedResources, GroupVersionResources). */
import { StatusError } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import {
  ErrGroupDiscoveryFailed,
  filterByVerbs,
  groupVersionResources,
  parseGroupVersion,
  serverPreferredNamespacedResources,
} from "./discovery.ts";
import type { RESTRequest } from "./discovery.ts";

const docs: Record<string, unknown> = {
  "/api": { versions: ["v1"] },
  "/apis": {
    groups: [
      {
        name: "networking.k8s.io",
        versions: [
          { groupVersion: "networking.k8s.io/v1", version: "v1" },
          { groupVersion: "networking.k8s.io/v1beta1", version: "v1beta1" },
        ],
        preferredVersion: { version: "v1" },
      },
      {
        name: "metrics.k8s.io",
        versions: [{ groupVersion: "metrics.k8s.io/v1beta1", version: "v1beta1" }],
        preferredVersion: { version: "v1beta1" },
      },
    ],
  },
  "/api/v1": {
    resources: [
      { name: "services", namespaced: true, verbs: ["create", "delete", "deletecollection", "list"] },
      { name: "services/status", namespaced: true, verbs: ["get", "update"] },
      { name: "namespaces", namespaced: false, verbs: ["delete", "list"] },
      { name: "bindings", namespaced: true, verbs: ["create"] },
    ],
  },
  "/apis/networking.k8s.io/v1": { resources: [{ name: "ingresses", namespaced: true, verbs: ["delete", "list"] }] },
  "/apis/networking.k8s.io/v1beta1": {
    resources: [
      { name: "ingresses", namespaced: true, verbs: ["delete", "list"] },
      { name: "oldthings", namespaced: true, verbs: ["delete", "list"] },
    ],
  },
};

const request: RESTRequest = (_m, path) => {
  if (path === "/apis/metrics.k8s.io/v1beta1")
    return Promise.reject(new StatusError("ServiceUnavailable", "the server is currently unable to handle the request"));
  return Promise.resolve(docs[path]);
};

describe("serverPreferredNamespacedResources", () => {
  it("keeps each resource in its group's preferred version, namespaced only, no subresources, and reports failed groups", async () => {
    const { lists, error } = await serverPreferredNamespacedResources(request);
    expect(lists.map((l) => [l.groupVersion, l.resources.map((r) => r.name)])).toEqual([
      ["v1", ["services", "bindings"]],
      ["networking.k8s.io/v1", ["ingresses"]],
      ["networking.k8s.io/v1beta1", ["oldthings"]],
    ]);
    expect(error).toBeInstanceOf(ErrGroupDiscoveryFailed);
    expect(error?.message).toBe(
      "unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request",
    );
    const deletable = groupVersionResources(filterByVerbs(lists, ["delete"]));
    expect(deletable.gvrs.map((g) => `${g.group}/${g.version}/${g.resource}`)).toEqual([
      "/v1/services",
      "networking.k8s.io/v1/ingresses",
      "networking.k8s.io/v1beta1/oldthings",
    ]);
  });

  it.each([
    ["v1", { group: "", version: "v1" }],
    ["apps/v1", { group: "apps", version: "v1" }],
    ["", { group: "", version: "" }],
  ])("parseGroupVersion(%j)", (gv, want) => {
    expect(parseGroupVersion(gv)).toEqual(want);
  });

  it("a group version that does not parse is GroupVersionResources' error", () => {
    const r = groupVersionResources([{ groupVersion: "a/b/c", resources: [{ name: "x", namespaced: true, verbs: ["delete"] }] }]);
    expect(r.gvrs).toEqual([]);
    expect(r.error?.message).toBe("unexpected GroupVersion string: a/b/c");
  });
});
