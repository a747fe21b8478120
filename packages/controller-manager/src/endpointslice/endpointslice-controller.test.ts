import { describe, expect, it } from "vitest";
import type { EndpointSlice, Pod, Service } from "@servicenet/api";
import { MemoryInformer } from "../framework/memory-informer.ts";
import { dualStackPods, makeService } from "../testing/fixtures.ts";
import { EndpointSliceController, StaleInformerCacheError, type EndpointSliceClient } from "./endpointslice-controller.ts";

function setup() {
  const services = new MemoryInformer<Service>([makeService()]);
  const pods = new MemoryInformer<Pod>(dualStackPods(3));
  const slices = new MemoryInformer<EndpointSlice>();
  const server = new Map<string, EndpointSlice>();
  let n = 0;
  let rv = 10;
  const calls: string[] = [];
  const client: EndpointSliceClient = {
    async create(ns, s) {
      const created = { ...s, metadata: { ...s.metadata, name: `${s.metadata.generateName}${++n}`, namespace: ns, resourceVersion: String(++rv) } };
      server.set(created.metadata.name, created);
      calls.push(`create ${created.metadata.name}`);
      return created;
    },
    async update(ns, s) {
      const updated = { ...s, metadata: { ...s.metadata, namespace: ns, resourceVersion: String(++rv) } };
      server.set(s.metadata.name!, updated);
      calls.push(`update ${s.metadata.name}`);
      return updated;
    },
    async delete(_ns, name) {
      server.delete(name);
      calls.push(`delete ${name}`);
    },
  };
  const c = new EndpointSliceController({ services, pods, slices, client });
  /** Delivers the server state to the informer, as the watch would. */
  const deliver = () => {
    for (const s of server.values()) slices.set(s);
    for (const s of slices.list()) if (!server.has(s.metadata.name!)) slices.remove(`default/${s.metadata.name}`);
  };
  return { c, services, pods, slices, server, calls, deliver };
}

describe("EndpointSliceController.syncService", () => {
  it("creates one slice per family, refuses to reconcile from a stale cache, then converges without duplicates", async () => {
    const { c, server, calls, deliver, services } = setup();
    await c.syncService("default/web");
    expect(calls).toEqual(["create web-1", "create web-2"]);
    // The watch has not delivered our creates yet: a second sync must not create again.
    await expect(c.syncService("default/web")).rejects.toBeInstanceOf(StaleInformerCacheError);
    deliver();
    await c.syncService("default/web");
    expect(calls).toHaveLength(2);
    // Downgrade to IPv4 only: the IPv6 slice goes.
    services.set(makeService({ families: ["IPv4"] }));
    await c.syncService("default/web");
    expect(calls.slice(2)).toEqual(["delete web-2"]);
    expect([...server.values()].map((s) => s.addressType)).toEqual(["IPv4"]);
  });

  it("a deleted Service has its slices deleted (no garbage collector in servicenet)", async () => {
    const { c, services, deliver, server } = setup();
    await c.syncService("default/web");
    deliver();
    services.remove("default/web");
    await c.syncService("default/web");
    expect(server.size).toBe(0);
  });

  it("pod events enqueue the selecting Service", async () => {
    const { c, pods } = setup();
    expect(c.queue.length).toBe(1); // the Service's own add
    const first = await c.queue.get();
    c.queue.done(first.item!);
    pods.set({ ...dualStackPods(1)[0]!, metadata: { ...dualStackPods(1)[0]!.metadata, resourceVersion: "2" } });
    expect(c.queue.length).toBe(1);
  });
});
