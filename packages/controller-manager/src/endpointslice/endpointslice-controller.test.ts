import { describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import type { EndpointSlice, Pod, Service } from "@servicenet/api";
import { FakeClock } from "@servicenet/component-base/clock";
import type { Logger } from "@servicenet/component-base/logs";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { dualStackPods, makePod, makeService } from "../testing/fixtures.ts";
import {
  EndpointSliceController,
  StaleInformerCacheError,
  staleCacheRecheckMs,
  type EndpointSliceClient,
} from "./endpointslice-controller.ts";

function setup(extra: { clock?: FakeClock; logger?: Logger; failUpdate?: string } = {}) {
  const services = new MemoryInformer<Service>([makeService()]);
  const pods = new MemoryInformer<Pod>(dualStackPods(3));
  const slices = new MemoryInformer<EndpointSlice>();
  const server = new Map<string, EndpointSlice>();
  let n = 0;
  let rv = 10;
  const calls: string[] = [];
  const client: EndpointSliceClient = {
    async create(ns, s) {
      const created = {
        ...s,
        metadata: { ...s.metadata, name: `${s.metadata.generateName}${++n}`, namespace: ns, resourceVersion: String(++rv) },
      };
      server.set(created.metadata.name, created);
      calls.push(`create ${created.metadata.name}`);
      return created;
    },
    async update(ns, s) {
      if (s.metadata.name === extra.failUpdate) throw Object.assign(new Error("Internal error"), { code: 500 });
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
  const c = new EndpointSliceController({ services, pods, slices, client, ...extra });
  /** Delivers the server state to the informer, as the watch would. */
  const deliver = () => {
    for (const s of server.values()) slices.set(s);
    for (const s of slices.list()) if (!server.has(s.metadata.name!)) slices.remove(`default/${s.metadata.name}`);
  };
  return { c, services, pods, slices, server, calls, deliver };
}

describe("EndpointSliceController.syncService", () => {
  it("drops a Service whose namespace is terminating (upstream reconciler finalize)", async () => {
    const { c } = setup();
    const terminating = Object.assign(new Error("Forbidden"), {
      code: 403,
      body: JSON.stringify({
        kind: "Status",
        reason: "Forbidden",
        code: 403,
        message: "x",
        details: { causes: [{ reason: "NamespaceTerminating" }] },
      }),
    });
    const failing = new EndpointSliceController({
      services: new MemoryInformer<Service>([makeService()]),
      pods: new MemoryInformer<Pod>(dualStackPods(3)),
      slices: new MemoryInformer<EndpointSlice>(),
      client: { create: () => Promise.reject(terminating), update: (_ns, s) => Promise.resolve(s), delete: () => Promise.resolve() },
    });
    await expect(failing.syncService("default/web")).resolves.toBeUndefined();
    await expect(c.syncService("default/web")).resolves.toBeUndefined();
  });

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

  it("the trigger-time annotation only counts the Service's own pods", async () => {
    const { c, server, deliver, pods } = setup();
    await c.syncService("default/web");
    deliver();
    pods.set(makePod({ name: "db-0", ips: ["10.0.0.9", "fd00::9"], labels: { app: "db" }, readyTransition: "2026-01-01T00:00:45Z" }));
    pods.set(makePod({ name: "web-9", ips: ["10.0.0.10", "fd00::10"], readyTransition: "2026-01-01T00:01:00Z" }));
    await c.syncService("default/web");
    const times = [...server.values()].map((s) => s.metadata.annotations?.["endpoints.kubernetes.io/last-change-trigger-time"]);
    expect(times).toEqual(["2026-01-01T00:01:00Z", "2026-01-01T00:01:00Z"]);
  });

  it("a deleted Service's slices are left to the garbage collector (their ownerReference), as upstream", async () => {
    const { c, services, deliver, server } = setup();
    await c.syncService("default/web");
    deliver();
    const before = server.size;
    services.remove("default/web");
    await c.syncService("default/web");
    expect(before).toBe(2);
    expect(server.size).toBe(before);
  });

  it("slices pending deletion are dropped and replaced (upstream dropEndpointSlicesPendingDeletion)", async () => {
    const { c, deliver, slices, server, calls } = setup();
    await c.syncService("default/web");
    deliver();
    await c.syncService("default/web");
    const held = [...server.values()].find((s) => s.addressType === "IPv4")!;
    // Marked deleting (a finalizer keeps it), e.g. by the garbage collector.
    slices.set({ ...held, metadata: { ...held.metadata, deletionTimestamp: "2026-01-01T00:00:00Z", resourceVersion: "999" } });
    calls.length = 0;
    await c.syncService("default/web");
    expect(calls).toEqual([expect.stringMatching(/^create web-/)]);
  });

  it("pod events enqueue the selecting Service", async () => {
    const { c, pods } = setup();
    expect(c.queue.len()).toBe(1); // the Service's own add
    const first = await c.queue.get();
    c.queue.done(first!);
    pods.set({ ...dualStackPods(1)[0]!, metadata: { ...dualStackPods(1)[0]!.metadata, resourceVersion: "2" } });
    expect(c.queue.len()).toBe(1);
  });

  it("workers: our own writes' events need no sync; a stale cache waits for them without a rate-limited retry", async () => {
    const clock = new FakeClock(1_000_000);
    const logged: string[] = [];
    const { c, server, slices, calls, pods } = setup({ clock, logger: { info: (m) => logged.push(m), error: (m) => logged.push(m) } });
    const stop = new AbortController();
    const running = c.run(stop.signal, 1);
    await until(() => calls.length === 2);
    slices.set(server.get("web-1")!); // exactly what we wrote: nothing to do
    expect(c.queue.len()).toBe(0);
    // A pod change before the cache has web-2: the sync refuses, without counting a failure...
    pods.set(dualStackPods(4)[3]!);
    await until(() => c.queue.len() === 0);
    await flush();
    expect(calls).toHaveLength(2);
    expect(c.queue.numRequeues("default/web")).toBe(0);
    expect(logged).not.toContain("Error syncing, retrying");
    // ...and our write's event, now awaited, brings the sync that writes the new pod.
    slices.set(server.get("web-2")!);
    await until(() => calls.length === 4);
    expect(calls.slice(2).sort()).toEqual(["update web-1", "update web-2"]);
    clock.step(staleCacheRecheckMs); // the safety-net re-add: the cache lacks the updates, so no write
    await flush();
    expect(calls).toHaveLength(4);
    stop.abort();
    await running;
  });

  it("writes the slices of both families together; a failed one is retried, the written one tracked", async () => {
    const { c, server, calls, deliver, pods } = setup({ failUpdate: "web-2" });
    await c.syncService("default/web");
    deliver();
    pods.set({ ...dualStackPods(4)[3]! });
    await expect(c.syncService("default/web")).rejects.toThrow("Internal error");
    expect(calls.slice(2).sort()).toEqual(["update web-1"]);
    expect(server.get("web-1")!.endpoints).toHaveLength(4);
    // web-1's update is tracked: reconciling before the cache has it is refused (no duplicate).
    await expect(c.syncService("default/web")).rejects.toBeInstanceOf(StaleInformerCacheError);
  });

  it("a slice deleted by someone else before our cache saw our write is recreated, not waited for", async () => {
    const { c, server, calls, slices } = setup();
    await c.syncService("default/web");
    const ours = server.get("web-2")!;
    server.delete("web-2"); // deleted behind our back; the cache only ever sees the delete
    slices.set(server.get("web-1")!);
    slices.set(ours);
    slices.remove("default/web-2");
    await c.syncService("default/web");
    expect(calls.slice(2)).toEqual(["create web-3"]);
  });
});

async function flush(): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
}

async function until(cond: () => boolean): Promise<void> {
  await eventually(cond, { timeoutMs: 1_000, intervalMs: 2 });
}
