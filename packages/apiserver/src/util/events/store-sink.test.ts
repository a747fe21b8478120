import type { Event } from "@servicenet/api";
import { FakeClock } from "@servicenet/component-base/clock";
import type { Logger } from "@servicenet/component-base/logs";
import { newEventRecorder } from "@servicenet/client/tools/events";
import { EventBroadcaster, type EventSink } from "@servicenet/client/tools/record";
import { eventually } from "@servicenet/testing";
import { describe, expect, it } from "vitest";
import { createStore, resourcePrefix } from "../../storage/index.ts";
import { storeEventSink } from "./store-sink.ts";

const svc = { kind: "Service", apiVersion: "v1", name: "web", namespace: "ns1", uid: "u1" };

/** `sink` counting the writes that reached it, so a test waits for them instead of sleeping. */
function counted(sink: EventSink): EventSink & { writes: number } {
  const c = {
    writes: 0,
    create: async (e: Event) => sink.create(e).finally(() => c.writes++),
    patch: async (e: Event, p: Record<string, unknown>) => sink.patch(e, p).finally(() => c.writes++),
  };
  return c;
}

describe("storeEventSink", () => {
  it("writes core/v1 Events and bumps the count of repeats", async () => {
    const store = await createStore({ backend: "memory" });
    const clock = new FakeClock(Date.parse("2026-01-02T03:04:05.678Z"));
    const broadcaster = new EventBroadcaster({ clock });
    const sink = counted(storeEventSink(store));
    broadcaster.startRecordingToSink(sink);
    const rec = newEventRecorder(broadcaster, "ipallocator-repair-controller");
    const message = "Cluster IP [IPv4]: 1.2.3.4 is not within any configured Service CIDR; please recreate service";
    rec.eventf(svc, null, "Warning", "ClusterIPOutOfRange", "ClusterIPAllocation", message);
    rec.eventf(svc, null, "Warning", "ClusterIPOutOfRange", "ClusterIPAllocation", message);
    rec.eventf(
      { kind: "ServiceCIDR", apiVersion: "networking.k8s.io/v1", name: "kubernetes" },
      null,
      "Warning",
      "KubernetesDefaultServiceCIDRInconsistent",
      "",
      "x",
    );
    await eventually(() => sink.writes === 3, { what: "two creates and a patch" });
    const ns1 = (await store.list(resourcePrefix("events", "ns1"))).items;
    expect(ns1).toHaveLength(1);
    expect(ns1[0]).toMatchObject({
      apiVersion: "v1",
      kind: "Event",
      count: 2,
      type: "Warning",
      reason: "ClusterIPOutOfRange",
      action: "ClusterIPAllocation",
      lastTimestamp: "2026-01-02T03:04:05Z",
      involvedObject: { kind: "Service", name: "web", namespace: "ns1", uid: "u1" },
      source: { component: "ipallocator-repair-controller" },
      reportingComponent: "ipallocator-repair-controller",
    });
    expect(ns1[0]?.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    const def = (await store.list(resourcePrefix("events", "default"))).items;
    expect(def[0]).toMatchObject({ involvedObject: { kind: "ServiceCIDR", name: "kubernetes" } });
    broadcaster.shutdown();
    await store.close();
  });

  it("re-creates an Event deleted since its last write (the patch finds it gone)", async () => {
    const store = await createStore({ backend: "memory" });
    const clock = new FakeClock(0);
    const broadcaster = new EventBroadcaster({ clock });
    const sink = counted(storeEventSink(store));
    broadcaster.startRecordingToSink(sink);
    const rec = newEventRecorder(broadcaster, "c");
    rec.eventf(svc, null, "Normal", "R", "A", "m");
    await eventually(() => sink.writes === 1, { what: "the first Event" });
    const [first] = (await store.list(resourcePrefix("events", "ns1"))).items;
    await store.delete(`${resourcePrefix("events", "ns1")}${first!.metadata.name}`);
    rec.eventf(svc, null, "Normal", "R", "A", "m");
    await eventually(() => sink.writes === 3, { what: "the failed patch and the create" });
    expect((await store.list(resourcePrefix("events", "ns1"))).items.map((e) => e["count"])).toEqual([2]);
    broadcaster.shutdown();
    await store.close();
  });

  it("never throws when storage fails: the broadcaster logs the write and retries it", async () => {
    const store = await createStore({ backend: "memory" });
    store.create = () => Promise.reject(new Error("etcdserver: request timed out"));
    const errors: string[] = [];
    const logger: Logger = { info() {}, error: (m, f) => errors.push(`${m}: ${String(f?.["err"])}`) };
    const broadcaster = new EventBroadcaster({ clock: new FakeClock(0), logger });
    broadcaster.startRecordingToSink(storeEventSink(store));
    expect(() => newEventRecorder(broadcaster, "c").eventf(svc, null, "Normal", "R", "", "m")).not.toThrow();
    await eventually(() => errors.length === 1, { what: "the failed write logged" });
    expect(errors).toEqual(["Unable to write event (may retry after sleeping): Error: etcdserver: request timed out"]);
    broadcaster.shutdown();
    await store.close();
  });
});
