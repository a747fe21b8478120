import { describe, expect, it } from "vitest";
import type { EndpointSlice, Pod, Service } from "@servicenet/api";
import { dualStackPods, makePod, makeService } from "../testing/fixtures.ts";
import { reconcile, type SliceChanges } from "./reconciler.ts";

/** Applies planned changes the way the apiserver would (names from generateName, RV bumps). */
function apply(existing: readonly EndpointSlice[], c: SliceChanges, seq = { n: 0 }): EndpointSlice[] {
  const gone = new Set([...c.toDelete, ...c.toUpdate].map((s) => s.metadata.name));
  const kept = existing.filter((s) => !gone.has(s.metadata.name));
  const created = c.toCreate.map((s) => ({
    ...s,
    metadata: { ...s.metadata, name: `${s.metadata.generateName}${++seq.n}`, resourceVersion: "1" },
  }));
  const updated = c.toUpdate.map((s) => ({
    ...s,
    metadata: { ...s.metadata, resourceVersion: String(Number(s.metadata.resourceVersion ?? "1") + 1) },
  }));
  return [...kept, ...created, ...updated];
}

const sizes = (slices: readonly EndpointSlice[], type: string) =>
  slices
    .filter((s) => s.addressType === type)
    .map((s) => s.endpoints.length)
    .sort((a, b) => b - a);
const counts = (c: SliceChanges) => ({ create: c.toCreate.length, update: c.toUpdate.length, delete: c.toDelete.length });

function converge(service: Service, pods: Pod[], existing: EndpointSlice[] = []): EndpointSlice[] {
  return apply(existing, reconcile({ service, pods, existingSlices: existing }));
}

describe("reconcile: one slice set per family", () => {
  it("dual-stack Service with 3 dual-stack pods: one IPv4 and one IPv6 slice with 3 endpoints each", () => {
    const svc = makeService({ families: ["IPv4", "IPv6"] });
    const c = reconcile({ service: svc, pods: dualStackPods(3), existingSlices: [], triggerTime: "2026-01-01T00:00:30Z" });
    expect(counts(c)).toEqual({ create: 2, update: 0, delete: 0 });
    const [v4, v6] = c.toCreate;
    expect(v4?.addressType).toBe("IPv4");
    expect(v4?.endpoints.map((e) => e.addresses)).toEqual([["10.244.0.1"], ["10.244.0.2"], ["10.244.0.3"]]);
    expect(v6?.addressType).toBe("IPv6");
    expect(v6?.endpoints.map((e) => e.addresses)).toEqual([["fd00:244::0:1"], ["fd00:244::0:2"], ["fd00:244::0:3"]]);
    expect(v4?.metadata).toEqual({
      generateName: "web-",
      namespace: "default",
      labels: { "kubernetes.io/service-name": "web", "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io" },
      ownerReferences: [{ apiVersion: "v1", kind: "Service", name: "web", uid: "uid-svc-web", controller: true, blockOwnerDeletion: true }],
      annotations: { "endpoints.kubernetes.io/last-change-trigger-time": "2026-01-01T00:00:30Z" },
    });
    expect(v4?.ports).toEqual([{ name: "http", port: 8080, protocol: "TCP" }]);
    expect(v4?.endpoints[0]).toEqual({
      addresses: ["10.244.0.1"],
      conditions: { ready: true, serving: true, terminating: false },
      targetRef: { kind: "Pod", namespace: "default", name: "p0", uid: "uid-p0" },
      nodeName: "node-a",
    });
  });

  it.each([
    ["IPv6 single-stack", { families: ["IPv6"] as ("IPv4" | "IPv6")[] }, ["IPv6"]],
    ["headless without families", { families: [] as ("IPv4" | "IPv6")[], clusterIP: "None" }, ["IPv4", "IPv6"]],
    ["headful without families, IPv6 clusterIP", { families: [] as ("IPv4" | "IPv6")[], clusterIP: "fd00:10:96::a" }, ["IPv6"]],
  ])("%s -> address types %j", (_n, o, want) => {
    const svc = makeService(o);
    if (o.families.length === 0) delete svc.spec.ipFamilies;
    expect(reconcile({ service: svc, pods: dualStackPods(2), existingSlices: [] }).toCreate.map((s) => s.addressType)).toEqual(want);
  });

  it("family downgrade deletes the IPv6 slice and leaves the IPv4 slice alone", () => {
    const slices = converge(makeService(), dualStackPods(3));
    const c = reconcile({ service: makeService({ families: ["IPv4"] }), pods: dualStackPods(3), existingSlices: slices });
    expect(counts(c)).toEqual({ create: 0, update: 0, delete: 1 });
    expect(c.toDelete[0]?.addressType).toBe("IPv6");
  });

  it("an unchanged Service and pods plan nothing", () => {
    const slices = converge(makeService(), dualStackPods(3));
    expect(counts(reconcile({ service: makeService(), pods: dualStackPods(3), existingSlices: slices }))).toEqual({
      create: 0,
      update: 0,
      delete: 0,
    });
  });
});

describe("reconcile: conditions", () => {
  it.each([
    ["not ready", { ready: false }, { ready: false, serving: false, terminating: false }],
    ["terminating but still ready", { deleting: true }, { ready: false, serving: true, terminating: true }],
  ])("a pod that becomes %s updates both slices in place", (_n, change, want) => {
    const svc = makeService();
    const slices = converge(svc, dualStackPods(3));
    const pods = dualStackPods(3);
    pods[1] = dualStackPods(2, change)[1]!;
    const c = reconcile({ service: svc, pods, existingSlices: slices });
    expect(counts(c)).toEqual({ create: 0, update: 2, delete: 0 });
    for (const s of c.toUpdate) expect(s.endpoints.find((e) => e.targetRef?.name === "p1")?.conditions).toEqual(want);
  });

  it("publishNotReadyAddresses marks every endpoint ready", () => {
    const c = reconcile({
      service: makeService({ publishNotReadyAddresses: true }),
      pods: dualStackPods(1, { ready: false }),
      existingSlices: [],
    });
    expect(c.toCreate[0]?.endpoints[0]?.conditions).toEqual({ ready: true, serving: false, terminating: false });
  });
});

describe("reconcile: sizing and churn", () => {
  it("250 pods spread over slices of at most 100 per family", () => {
    const slices = converge(makeService(), dualStackPods(250));
    expect(sizes(slices, "IPv4")).toEqual([100, 100, 50]);
    expect(sizes(slices, "IPv6")).toEqual([100, 100, 50]);
  });

  it("one more pod fills the partial slice instead of creating one", () => {
    const slices = converge(makeService({ families: ["IPv4"] }), dualStackPods(250));
    const c = reconcile({ service: makeService({ families: ["IPv4"] }), pods: dualStackPods(251), existingSlices: slices });
    expect(counts(c)).toEqual({ create: 0, update: 1, delete: 0 });
    expect(c.toUpdate[0]?.endpoints).toHaveLength(51);
  });

  it("a pod replaced by a new one touches only the slice that lost an endpoint", () => {
    const svc = makeService({ families: ["IPv4"] });
    const slices = converge(svc, dualStackPods(250));
    const pods = dualStackPods(251).filter((p) => p.metadata.name !== "p5");
    const c = reconcile({ service: svc, pods, existingSlices: slices });
    expect(counts(c)).toEqual({ create: 0, update: 1, delete: 0 });
    expect(c.toUpdate[0]?.endpoints.some((e) => e.targetRef?.name === "p250")).toBe(true);
    expect(sizes(apply(slices, c), "IPv4")).toEqual([100, 100, 50]);
  });

  it("removing all pods of a slice deletes it; emptying the Service leaves one placeholder per family", () => {
    const svc = makeService();
    const slices = converge(svc, dualStackPods(3));
    const c = reconcile({ service: svc, pods: [], existingSlices: slices });
    // The two emptied slices are reused for the placeholders (finalize turns create+delete into update).
    expect(counts(c)).toEqual({ create: 0, update: 2, delete: 0 });
    const after = apply(slices, c);
    expect(after.map((s) => [s.addressType, s.endpoints.length, s.ports])).toEqual([
      ["IPv4", 0, []],
      ["IPv6", 0, []],
    ]);
    expect(counts(reconcile({ service: svc, pods: [], existingSlices: after }))).toEqual({ create: 0, update: 0, delete: 0 });
  });

  it("a Service label change relabels the slices without touching endpoints", () => {
    const slices = converge(makeService(), dualStackPods(2));
    const c = reconcile({ service: makeService({ labels: { tier: "front" } }), pods: dualStackPods(2), existingSlices: slices });
    expect(counts(c)).toEqual({ create: 0, update: 2, delete: 0 });
    expect(c.toUpdate[0]?.metadata.labels?.["tier"]).toBe("front");
  });

  it("slices owned by an older Service of the same name are deleted", () => {
    const old = converge(makeService(), dualStackPods(1)).map((s) => ({
      ...s,
      metadata: { ...s.metadata, ownerReferences: [{ apiVersion: "v1", kind: "Service", name: "web", uid: "old" }] },
    }));
    const c = reconcile({ service: makeService(), pods: dualStackPods(1), existingSlices: old });
    expect(counts(c)).toEqual({ create: 2, update: 0, delete: 2 });
  });

  it("pods whose Node is unknown are skipped and reported", () => {
    const pods = [makePod({ name: "a", ips: ["10.0.0.1"], nodeName: "ghost" }), makePod({ name: "b", ips: ["10.0.0.2"] })];
    const c = reconcile({ service: makeService({ families: ["IPv4"] }), pods, existingSlices: [], nodes: new Map() });
    expect(c.toCreate[0]?.endpoints.map((e) => e.targetRef?.name)).toEqual(["b"]);
    expect(c.errors).toEqual(["skipping Pod a for Service default/web: Node ghost Not Found"]);
  });

  it("zone comes from the Node's topology label", () => {
    const nodes = new Map([["node-a", { metadata: { name: "node-a", labels: { "topology.kubernetes.io/zone": "z1" } } } as never]]);
    const c = reconcile({ service: makeService({ families: ["IPv4"] }), pods: dualStackPods(1), existingSlices: [], nodes });
    expect(c.toCreate[0]?.endpoints[0]?.zone).toBe("z1");
  });
});
