import { beforeEach, expect, it, vi } from "vitest";
import { describeEachBackend } from "./backend-suite.ts";
import type { KubeObject, Store, WatchEvent } from "./interfaces.ts";
import { collect, testObject } from "./testing.ts";

// etcd round trips on a shared 2-core machine can be slow; correctness, not speed, is tested here.
vi.setConfig({ testTimeout: 20_000 });

const dir = "/registry/configmaps/";
const key = (name: string): string => `${dir}default/${name}`;
const summary = (evs: WatchEvent[]): string[] =>
  evs.map((e) =>
    e.type === "ERROR" ? `ERROR ${e.object.code}` : `${e.type} ${e.object.metadata.name ?? ""}@${e.object.metadata.resourceVersion}`,
  );
const labelled = (o: KubeObject): boolean => (o.metadata["labels"] as Record<string, string> | undefined)?.["app"] === "web";

describeEachBackend(
  "watch",
  (ctx) => {
    let store: Store;
    const backend = ctx.backend;
    beforeEach(() => {
      store = ctx.store;
    });

    it("replays every change after an old revision in order, then follows live writes", async () => {
      const start = await store.currentRevision();
      const a = await store.create(key("a"), testObject("a"));
      const b = await store.create(key("b"), testObject("b"));
      const a2 = await store.guaranteedUpdate(key("a"), (cur) => ({ ...cur, data: { v: "2" } }));
      await store.delete(key("b"));
      const watch = store.watch(dir, { resourceVersion: String(start), recursive: true });
      const live = store.create(key("c"), testObject("c"));
      const evs = await collect(watch, 5);
      const c = await live;
      const delRev = Number(a2.metadata.resourceVersion) + 1;
      expect(summary(evs)).toEqual([
        `ADDED a@${a.metadata.resourceVersion}`,
        `ADDED b@${b.metadata.resourceVersion}`,
        `MODIFIED a@${a2.metadata.resourceVersion}`,
        `DELETED b@${backend === "etcd" ? evs[3]!.object.metadata.resourceVersion : delRev}`,
        `ADDED c@${c.metadata.resourceVersion}`,
      ]);
      const revs = evs.map((e) => Number((e.object as KubeObject).metadata.resourceVersion));
      expect([...revs].sort((x, y) => x - y)).toEqual(revs);
      expect(evs[2]!.object).toEqual(a2);
    });

    it('starts with the current state as ADDED events for resourceVersion ""', async () => {
      await store.create(key("a"), testObject("a"));
      await store.create(key("b"), testObject("b"));
      const watch = store.watch(dir, { recursive: true });
      setTimeout(() => void store.delete(key("a")), 50);
      expect(summary(await collect(watch, 3)).map((s) => s.split("@")[0])).toEqual(["ADDED a", "ADDED b", "DELETED a"]);
    });

    it("watches a single key only", async () => {
      const start = await store.currentRevision();
      await store.create(key("ab"), testObject("ab"));
      await store.create(key("a"), testObject("a"));
      await store.delete(key("a"));
      const evs = await collect(store.watch(key("a"), { resourceVersion: String(start) }), 2);
      expect(summary(evs).map((s) => s.split("@")[0])).toEqual(["ADDED a", "DELETED a"]);
    });

    it("reports objects entering and leaving the predicate as ADDED and DELETED", async () => {
      const start = await store.currentRevision();
      await store.create(key("a"), testObject("a"));
      await store.guaranteedUpdate(key("a"), (cur) => ({ ...cur, metadata: { ...cur.metadata, labels: { app: "web" } } }));
      await store.guaranteedUpdate(key("a"), (cur) => ({ ...cur, data: { v: "1" } }));
      const left = await store.guaranteedUpdate(key("a"), (cur) => ({ ...cur, metadata: { ...cur.metadata, labels: {} } }));
      const evs = await collect(store.watch(dir, { resourceVersion: String(start), recursive: true, predicate: labelled }), 3);
      expect(evs.map((e) => e.type)).toEqual(["ADDED", "MODIFIED", "DELETED"]);
      // The DELETED one carries the last matching content at the revision that made it leave.
      const del = evs[2]!.object as KubeObject;
      expect([del.metadata["labels"], del.metadata.resourceVersion]).toEqual([{ app: "web" }, left.metadata.resourceVersion]);
    });

    it("sends bookmarks with the progress revision when asked", async () => {
      const obj = await store.create(key("a"), testObject("a"));
      const watch = store.watch(dir, {
        resourceVersion: obj.metadata.resourceVersion!,
        recursive: true,
        allowBookmarks: true,
        bookmarkIntervalMs: 30,
      });
      const [ev] = await collect(watch, 1);
      expect(ev?.type).toBe("BOOKMARK");
      expect(Number((ev!.object as KubeObject).metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(obj.metadata.resourceVersion));
    });

    it("never sends a bookmark ahead of an event it has not delivered yet", async () => {
      const start = await store.currentRevision();
      await Promise.all(
        Array.from({ length: 16 }, async (_, w) => {
          for (let i = 0; i < 10; i++) await store.create(key(`b${w}-${i}`), testObject(`b${w}-${i}`));
        }),
      );
      const watch = store.watch(dir, { resourceVersion: String(start), recursive: true, allowBookmarks: true, bookmarkIntervalMs: 1 });
      const seen: WatchEvent[] = [];
      for await (const ev of watch) {
        seen.push(ev);
        if (seen.filter((e) => e.type === "ADDED").length === 160) break;
      }
      let bookmark = 0;
      for (const ev of seen) {
        const rv = Number((ev.object as KubeObject).metadata.resourceVersion);
        if (ev.type === "BOOKMARK") bookmark = Math.max(bookmark, rv);
        else expect(rv).toBeGreaterThan(bookmark);
      }
    });

    it("ends with a 410 Expired ERROR when the revision was compacted", async () => {
      const start = await store.currentRevision();
      await store.create(key("a"), testObject("a"));
      for (let i = 0; i < 3; i++) await store.guaranteedUpdate(key("a"), (cur) => ({ ...cur, data: { i: String(i) } }));
      const target = await store.currentRevision();
      await store.compact(target);
      const evs = await collect(store.watch(dir, { resourceVersion: String(start), recursive: true }), 2).catch(() => []);
      const [err] = evs;
      expect(evs).toHaveLength(1);
      expect(err?.type).toBe("ERROR");
      if (err?.type !== "ERROR") return;
      expect([err.object.code, err.object.reason, err.object.message]).toEqual([
        410,
        "Expired",
        `too old resource version: ${start} (${target})`,
      ]);
      // From the compacted revision itself the watch works.
      const watch = store.watch(dir, { resourceVersion: String(target), recursive: true });
      setTimeout(() => void store.delete(key("a")), 30);
      expect((await collect(watch, 1))[0]?.type).toBe("DELETED");
    });

    it("from a future revision, delivers only changes after it", async () => {
      const now = await store.currentRevision();
      const watch = store.watch(dir, { resourceVersion: String(now + 2), recursive: true });
      const writes = (async () => {
        for (const n of ["f1", "f2", "f3", "f4"]) await store.create(key(n), testObject(n));
      })();
      const evs = await collect(watch, 2);
      await writes;
      expect(summary(evs).map((s) => s.split("@")[0])).toEqual(["ADDED f3", "ADDED f4"]);
    });

    it("stops when the signal aborts", async () => {
      const ac = new AbortController();
      const watch = store.watch(dir, { recursive: true, signal: ac.signal });
      setTimeout(() => ac.abort(), 30);
      const evs: WatchEvent[] = [];
      for await (const ev of watch) evs.push(ev);
      expect(evs).toEqual([]);
    });
  },
  { sharedHistory: true, seed: true },
);
