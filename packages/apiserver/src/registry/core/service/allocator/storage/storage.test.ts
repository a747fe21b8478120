/**
 * Upstream allocator/storage/storage_test.go (TestEmpty, TestStore) plus the behaviour this port
 * adds: batching, rollback after a failed write, CreateOrUpdate conflicts, on every backend.
 */
import { describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import { AllocationBitmap } from "../bitmap.ts";
import { seededRandom } from "../random.ts";
import {
  ErrRangeNotInitialized,
  serviceIPAllocationsResource,
  serviceIPsKey,
  serviceNodePortAllocationsResource,
  serviceNodePortsKey,
} from "./keys.ts";
import { StoredBitmap } from "./storage.ts";
import { countingStore, failingWrites, rangeBackends, reopen, withStore } from "./testing.ts";
import type { Store } from "../../../../../storage/index.ts";

const spec = "192.168.1.0/24";

function newBitmap(store: Store, seed = 1, key = serviceIPsKey, resource = serviceIPAllocationsResource): StoredBitmap {
  return new StoredBitmap({ store, key, resource, bitmap: new AllocationBitmap(254, spec, 16, seededRandom(seed)) });
}

describe.each(rangeBackends())("allocator storage on %s", (backend) => {
  it.each([
    { name: "serviceipallocations", key: serviceIPsKey, resource: serviceIPAllocationsResource },
    { name: "servicenodeportallocations", key: serviceNodePortsKey, resource: serviceNodePortAllocationsResource },
  ])("TestEmpty: $name refuses to allocate before the object exists", ({ key, resource, name }) =>
    withStore(backend, async ({ store }) => {
      const b = newBitmap(store, 1, key, resource);
      await expect(b.allocate(1)).rejects.toThrow(`cannot allocate resources of type ${name} at this time`);
      await expect(b.allocateNext()).rejects.toBeInstanceOf(ErrRangeNotInitialized);
      expect(b.has(1)).toBe(false);
      expect(await b.get()).toBeNull();
    }),
  );

  it("TestStore: an allocation is visible to a second allocator on the same storage", () =>
    withStore(backend, async ({ store }) => {
      const a = newBitmap(store, 1);
      const b = newBitmap(store, 2);
      await a.createOrUpdate({ range: spec, data: "" });
      expect(await a.allocate(2)).toBe(true);
      expect(await a.allocate(2)).toBe(false);
      expect(await b.allocate(2)).toBe(false); // restored from storage before trying
      expect(b.has(2)).toBe(true);
      await b.release(2);
      expect(await a.allocate(2)).toBe(true);
      const raw = await store.get(serviceIPsKey);
      expect(raw).toMatchObject({ apiVersion: "v1", kind: "RangeAllocation", metadata: { name: "" }, range: spec, data: "BA==" });
    }));

  it("coalesces concurrent operations into fewer writes, each with its own result", () =>
    withStore(backend, async ({ store }) => {
      const a = newBitmap(store);
      await a.createOrUpdate({ range: spec, data: "" });
      const got = await Promise.all(Array.from({ length: 200 }, () => a.allocateNext()));
      const again = await Promise.all([a.allocate(got[0]!), a.allocate(got[1]!), a.allocate(253)]);
      expect(new Set(got).size).toBe(200);
      expect(again).toEqual([false, false, !got.includes(253)]);
      expect(a.stats().writes).toBeLessThan(a.stats().ops);
      const fresh = newBitmap(store, 9);
      await fresh.release(-1); // any operation restores
      expect(fresh.free()).toBe(254 - 200 - (got.includes(253) ? 0 : 1));
    }));

  it("a failed write rejects the whole batch and restores the committed state", () =>
    withStore(backend, async ({ store }) => {
      const outage = new Error("etcdserver: request timed out");
      const f = failingWrites(store, serviceIPsKey, outage);
      const a = newBitmap(f.store);
      await a.createOrUpdate({ range: spec, data: "" });
      expect(await a.allocate(5)).toBe(true);
      f.fail(1);
      const batch = await Promise.allSettled([a.allocate(6), a.allocateNext(), a.release(5)]);
      expect(batch.map((r) => (r.status === "rejected" ? (r.reason as Error).message : "ok"))).toEqual([
        outage.message,
        outage.message,
        outage.message,
      ]);
      expect(a.has(5)).toBe(true);
      expect(a.has(6)).toBe(false);
      expect(a.free()).toBe(253);
      expect(await a.allocate(6)).toBe(true);
      const b = newBitmap(store, 3);
      await b.release(-1);
      expect([b.has(5), b.has(6), b.free()]).toEqual([true, true, 252]);
    }));

  it("writes on its own last revision without reading the object, one write and one revision per batch", () =>
    withStore(backend, async ({ store }) => {
      const c = countingStore(store);
      const a = newBitmap(c.store);
      await a.createOrUpdate({ range: spec, data: "" });
      c.calls.clear();
      const rev0 = await store.currentRevision();
      for (let i = 0; i < 5; i++) await a.allocateNext();
      await Promise.all(Array.from({ length: 20 }, () => a.allocateNext()));
      expect(Object.fromEntries(c.calls)).toEqual({ txn: 6 });
      expect((await store.currentRevision()) - rev0).toBe(6);
      expect(a.stats()).toMatchObject({ writes: 6, blindWrites: 6, ops: 25 });
      const fresh = newBitmap(store, 9);
      await fresh.release(-1);
      expect(fresh.free()).toBe(254 - 25);
    }));

  it("a write on a revision another allocator moved on re-reads and re-applies the batch", () =>
    withStore(backend, async ({ store }) => {
      const a = newBitmap(store, 1);
      const b = newBitmap(store, 2);
      await a.createOrUpdate({ range: spec, data: "" });
      expect(await a.allocate(3)).toBe(true);
      expect(await b.allocate(4)).toBe(true); // a's revision is stale now
      expect(await a.allocate(4)).toBe(false);
      expect(await a.allocate(5)).toBe(true);
      // allocate(4): its write on the old revision lost, the re-read found 4 taken (nothing written)
      expect(a.stats()).toMatchObject({ writes: 3, blindWrites: 3 });
      expect([a.has(3), a.has(4), a.has(5)]).toEqual([true, true, true]);
      expect(await b.allocate(5)).toBe(false);
      expect(await b.allocate(3)).toBe(false);
    }));

  it("an answer that changes nothing is confirmed against storage, not the memory", () =>
    withStore(backend, async ({ store }) => {
      const a = newBitmap(store, 1);
      const b = newBitmap(store, 2);
      await a.createOrUpdate({ range: spec, data: "" });
      expect(await a.allocate(7)).toBe(true);
      await b.release(7); // b catches up with storage, then frees 7
      expect(await a.allocate(7)).toBe(true); // a's memory still had 7
    }));

  it.each([
    { name: "create when already initialized", first: true, rv: "", want: "another caller has already initialized the resource" },
    { name: "update with a stale resourceVersion", first: true, rv: "1", want: "the provided resource version does not match" },
  ])("CreateOrUpdate conflict: $name", ({ rv, want }) =>
    withStore(backend, async ({ store }) => {
      const a = newBitmap(store);
      await a.createOrUpdate({ range: spec, data: "" });
      await a.allocate(1);
      const err = await a.createOrUpdate({ range: spec, data: "", resourceVersion: rv }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StatusError);
      expect((err as StatusError).reason).toBe("Conflict");
      expect((err as StatusError).message).toBe(`Operation cannot be fulfilled on serviceipallocations "": ${want}`);
    }),
  );

  it("CreateOrUpdate with the current resourceVersion replaces the bitmap and memory follows", () =>
    withStore(backend, async ({ store }) => {
      const a = newBitmap(store);
      await a.createOrUpdate({ range: spec, data: "" });
      await a.allocate(1);
      const snap = await a.get();
      await a.createOrUpdate({ range: spec, data: Buffer.from([0x80]).toString("base64"), resourceVersion: snap!.resourceVersion });
      expect([a.has(1), a.has(7)]).toEqual([false, true]);
      expect(await a.allocate(7)).toBe(false);
    }));

  it("a stored bitmap of another range fails every operation", () =>
    withStore(backend, async ({ store }) => {
      const a = newBitmap(store);
      await a.createOrUpdate({ range: spec, data: "" });
      const other = new StoredBitmap({
        store,
        key: serviceIPsKey,
        resource: serviceIPAllocationsResource,
        bitmap: new AllocationBitmap(254, "10.0.0.0/24", 16),
      });
      await expect(other.allocateNext()).rejects.toThrow("the provided range does not match the current range");
      expect(other.free()).toBe(254);
    }));

  it("two Store instances on the same data share the bitmap", () =>
    withStore(backend, async (t) => {
      if (backend === "memory") return; // a memory store cannot be opened twice
      const second = await reopen(t);
      try {
        const a = newBitmap(t.store, 1);
        const b = newBitmap(second, 2);
        await a.createOrUpdate({ range: spec, data: "" });
        const [x, y] = await Promise.all([
          Promise.all(Array.from({ length: 50 }, () => a.allocateNext())),
          Promise.all(Array.from({ length: 50 }, () => b.allocateNext())),
        ]);
        expect(new Set([...x, ...y]).size).toBe(100);
      } finally {
        await second.close();
      }
    }));
});
