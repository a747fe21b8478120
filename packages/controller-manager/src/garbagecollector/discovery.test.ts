/**
 * Discovery of the resources the garbage collector monitors (upstream garbagecollector_test.go
 * TestGetDeletableResources): each group's preferred version, verbs delete+list+watch, events
 * ignored (the GC's default ignoredResources), subresources skipped; and the REST mapping of any
 * served version.
 */
import { describe, expect, it } from "vitest";
import { discover, resourcePath } from "./discovery.ts";
import type { RESTClient } from "@servicenet/client/rest";

const rw = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
const answers: Record<string, unknown> = {
  "/api": { versions: ["v1"] },
  "/apis": {
    groups: [
      {
        name: "networking.k8s.io",
        versions: [{ groupVersion: "networking.k8s.io/v1" }, { groupVersion: "networking.k8s.io/v1beta1" }],
        preferredVersion: { groupVersion: "networking.k8s.io/v1" },
      },
      { name: "events.k8s.io", versions: [{ groupVersion: "events.k8s.io/v1" }], preferredVersion: { groupVersion: "events.k8s.io/v1" } },
    ],
  },
  "/api/v1": {
    groupVersion: "v1",
    resources: [
      { name: "services", kind: "Service", namespaced: true, verbs: rw },
      { name: "services/status", kind: "Service", namespaced: true, verbs: ["get", "patch", "update"] },
      { name: "events", kind: "Event", namespaced: true, verbs: rw },
      { name: "namespaces", kind: "Namespace", namespaced: false, verbs: ["create", "delete", "get", "list", "patch", "update", "watch"] },
      { name: "bindings", kind: "Binding", namespaced: true, verbs: ["create"] },
    ],
  },
  "/apis/networking.k8s.io/v1": {
    groupVersion: "networking.k8s.io/v1",
    resources: [{ name: "ipaddresses", kind: "IPAddress", namespaced: false, verbs: rw }],
  },
  "/apis/networking.k8s.io/v1beta1": {
    groupVersion: "networking.k8s.io/v1beta1",
    resources: [{ name: "ipaddresses", kind: "IPAddress", namespaced: false, verbs: rw }],
  },
  "/apis/events.k8s.io/v1": {
    groupVersion: "events.k8s.io/v1",
    resources: [{ name: "events", kind: "Event", namespaced: true, verbs: rw }],
  },
};
const client: Pick<RESTClient, "request"> = {
  request: <T>(_m: string, path: string) => Promise.resolve(answers[path] as T),
};

describe("TestGetDeletableResources", () => {
  it("monitors the preferred version of every deletable resource but events", async () => {
    const d = await discover(client);
    expect(d.deletable.map((r) => `${r.group}/${r.version}/${r.resource}`)).toEqual([
      "/v1/services",
      "/v1/namespaces",
      "networking.k8s.io/v1/ipaddresses",
    ]);
  });

  it("maps owner references of any served version to their resource", async () => {
    const d = await discover(client);
    expect(d.mapping("networking.k8s.io/v1beta1", "IPAddress")).toMatchObject({
      version: "v1beta1",
      resource: "ipaddresses",
      namespaced: false,
    });
    expect(d.mapping("apps/v1", "ReplicaSet")).toBeUndefined();
    expect(resourcePath(d.mapping("v1", "Service")!, "ns", "web")).toBe("/api/v1/namespaces/ns/services/web");
    expect(resourcePath(d.mapping("v1", "Namespace")!, "ns", "web")).toBe("/api/v1/namespaces/web");
  });
});
