/**
 * metadata.generation per kind, as kube-apiserver 1.33's strategies set it: EndpointSlice
 * (endpointslice/strategy.go: 1 on create, +1 when anything but metadata or the labels change)
 * and Pod (pod/strategy.go: 1, +1 on a spec change) track it; Service, Endpoints, Event, Node,
 * Namespace, ServiceCIDR and IPAddress do not (rest.BeforeUpdate keeps the stored value, so it
 * stays absent). And a core Event's zero times as Go's encoder writes them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

const json = { "Content-Type": "application/json" };
const merge = { "Content-Type": "application/merge-patch+json" };

interface Obj {
  metadata: { generation?: number; name: string };
  [k: string]: unknown;
}

describe("metadata.generation (per-kind strategies)", () => {
  let s: TestServer;
  const post = async (path: string, body: unknown): Promise<Obj> => {
    const r = await s.request(path, { method: "POST", headers: json, body: JSON.stringify(body) });
    expect(r.status, r.text).toBe(201);
    return r.json() as Obj;
  };
  const patch = async (path: string, body: unknown): Promise<Obj> => {
    const r = await s.request(path, { method: "PATCH", headers: merge, body: JSON.stringify(body) });
    expect(r.status, r.text).toBe(200);
    return r.json() as Obj;
  };
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each([
    ["services", "/api/v1/namespaces/default/services", { metadata: { name: "g-svc" }, spec: { ports: [{ port: 80 }] } }, undefined],
    ["endpoints", "/api/v1/namespaces/default/endpoints", { metadata: { name: "g-ep" }, subsets: [] }, undefined],
    [
      "endpointslices",
      "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices",
      { metadata: { name: "g-es" }, addressType: "IPv4", endpoints: [], ports: [] },
      1,
    ],
    [
      "servicecidrs",
      "/apis/networking.k8s.io/v1/servicecidrs",
      { metadata: { name: "g-cidr" }, spec: { cidrs: ["10.131.0.0/24"] } },
      undefined,
    ],
    [
      "ipaddresses",
      "/apis/networking.k8s.io/v1/ipaddresses",
      {
        metadata: { name: "10.96.77.77" },
        spec: { parentRef: { group: "", resource: "services", namespace: "default", name: "x" } },
      },
      undefined,
    ],
    [
      "events",
      "/api/v1/namespaces/default/events",
      { metadata: { name: "g-ev" }, involvedObject: { kind: "Service", namespace: "default", name: "x" } },
      undefined,
    ],
    ["nodes", "/api/v1/nodes", { metadata: { name: "g-node" } }, undefined],
    ["namespaces", "/api/v1/namespaces", { metadata: { name: "g-ns" } }, undefined],
    [
      "pods",
      "/api/v1/namespaces/default/pods",
      { metadata: { name: "g-pod" }, spec: { containers: [{ name: "c", image: "busybox" }] } },
      1,
    ],
  ])("%s: create gives generation %s", async (_kind, path, body, want) => {
    expect((await post(path, body)).metadata.generation).toBe(want);
  });

  it("EndpointSlice: +1 when endpoints or labels change, not for annotations", async () => {
    const path = "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices";
    await post(path, { metadata: { name: "g-es2" }, addressType: "IPv4", endpoints: [], ports: [] });
    expect((await patch(`${path}/g-es2`, { endpoints: [{ addresses: ["10.0.0.1"] }] })).metadata.generation).toBe(2);
    expect((await patch(`${path}/g-es2`, { metadata: { labels: { a: "b" } } })).metadata.generation).toBe(3);
    expect((await patch(`${path}/g-es2`, { metadata: { annotations: { a: "b" } } })).metadata.generation).toBe(3);
  });

  it("Service and ServiceCIDR: a spec change leaves generation absent", async () => {
    await post("/api/v1/namespaces/default/services", { metadata: { name: "g-svc2" }, spec: { ports: [{ port: 80 }] } });
    const svc = await patch("/api/v1/namespaces/default/services/g-svc2", { spec: { ports: [{ port: 81 }] } });
    expect(svc.metadata.generation).toBeUndefined();
    await post("/apis/networking.k8s.io/v1/servicecidrs", { metadata: { name: "g-cidr2" }, spec: { cidrs: ["10.132.0.0/24"] } });
    const cidr = await patch("/apis/networking.k8s.io/v1/servicecidrs/g-cidr2", { spec: { cidrs: ["10.132.0.0/24", "fd00:132::/112"] } });
    expect(cidr.metadata.generation).toBeUndefined();
  });

  it("Pod: +1 on a spec change, not for labels", async () => {
    const path = "/api/v1/namespaces/default/pods";
    await post(path, { metadata: { name: "g-pod2" }, spec: { containers: [{ name: "c", image: "busybox" }] } });
    expect((await patch(`${path}/g-pod2`, { metadata: { labels: { a: "b" } } })).metadata.generation).toBe(1);
    expect((await patch(`${path}/g-pod2`, { spec: { containers: [{ name: "c", image: "busybox:2" }] } })).metadata.generation).toBe(2);
  });

  it("core Event: unset times are null, reportingComponent/Instance empty, source {} (Go's encoder)", async () => {
    const r = await s.request("/api/v1/namespaces/default/events", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ metadata: { name: "g-ev-null" }, involvedObject: { kind: "Service", name: "x" }, reason: "R" }),
    });
    expect(r.status, r.text).toBe(201);
    const ev = r.json() as Record<string, unknown>;
    expect(ev).toMatchObject({
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: null,
      reportingComponent: "",
      reportingInstance: "",
      source: {},
    });
    // Go struct order: ... source, firstTimestamp, lastTimestamp, count, type, eventTime, ... reportingComponent, reportingInstance.
    expect(Object.keys(ev).slice(2)).toEqual([
      "metadata",
      "involvedObject",
      "reason",
      "source",
      "firstTimestamp",
      "lastTimestamp",
      "eventTime",
      "reportingComponent",
      "reportingInstance",
    ]);
    const got = await s.request("/api/v1/namespaces/default/events/g-ev-null");
    expect(got.json()).toMatchObject({ firstTimestamp: null, lastTimestamp: null, eventTime: null });
  });
});
