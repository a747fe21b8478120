import { describe, expect, it } from "vitest";
import { createStore, resourcePrefix } from "../../storage/index.ts";
import { FakeRecorder, StoreEventRecorder } from "./recorder.ts";

const svc = { kind: "Service", apiVersion: "v1", name: "web", namespace: "ns1", uid: "u1" };

describe("StoreEventRecorder", () => {
  it("writes core/v1 Events and bumps the count of repeats", async () => {
    const store = await createStore({ backend: "memory" });
    const t = new Date("2026-01-02T03:04:05.678Z");
    const rec = new StoreEventRecorder(store, { component: "ipallocator-repair-controller", now: () => t });
    await rec.eventf(
      svc,
      "Warning",
      "ClusterIPOutOfRange",
      "ClusterIPAllocation",
      "Cluster IP [IPv4]: 1.2.3.4 is not within any configured Service CIDR; please recreate service",
    );
    await rec.eventf(
      svc,
      "Warning",
      "ClusterIPOutOfRange",
      "ClusterIPAllocation",
      "Cluster IP [IPv4]: 1.2.3.4 is not within any configured Service CIDR; please recreate service",
    );
    await rec.eventf(
      { kind: "ServiceCIDR", apiVersion: "networking.k8s.io/v1", name: "kubernetes" },
      "Warning",
      "KubernetesDefaultServiceCIDRInconsistent",
      "",
      "x",
    );
    const ns1 = (await store.list(resourcePrefix("events", "ns1"))).items;
    expect(ns1).toHaveLength(1);
    expect(ns1[0]).toMatchObject({
      count: 2,
      type: "Warning",
      reason: "ClusterIPOutOfRange",
      lastTimestamp: "2026-01-02T03:04:05Z",
      involvedObject: { kind: "Service", name: "web", namespace: "ns1", uid: "u1" },
      source: { component: "ipallocator-repair-controller" },
    });
    const def = (await store.list(resourcePrefix("events", "default"))).items;
    expect(def[0]).toMatchObject({ involvedObject: { kind: "ServiceCIDR", name: "kubernetes", namespace: "" } });
    await store.close();
  });

  it("never throws when storage fails", async () => {
    const store = await createStore({ backend: "memory" });
    store.create = () => Promise.reject(new Error("etcdserver: request timed out"));
    const logs: string[] = [];
    await new StoreEventRecorder(store, { component: "c", log: (m) => logs.push(m) }).eventf(svc, "Normal", "R", "", "m");
    expect(logs).toEqual(["event R for Service web not recorded: Error: etcdserver: request timed out"]);
    await store.close();
  });

  it("FakeRecorder keeps upstream's test strings", async () => {
    const f = new FakeRecorder();
    await f.eventf(
      svc,
      "Warning",
      "ClusterIPNotAllocated",
      "ClusterIPAllocation",
      "Cluster IP [IPv4]: 10.0.1.1 is not allocated; repairing",
    );
    expect(f.events).toEqual(["Warning ClusterIPNotAllocated Cluster IP [IPv4]: 10.0.1.1 is not allocated; repairing"]);
  });
});
