import { beforeEach, expect, it, vi } from "vitest";
import { describeEachBackend } from "./backend-suite.ts";
import type { KubeObject, Store, WatchEvent } from "./interfaces.ts";
import { collect, testObject } from "./testing.ts";

// etcd round trips on a shared 2-core machine can be slow; correctness, not speed, is tested here.
vi.setConfig({ testTimeout: 20_000 });

const dir = "/registry/configmaps/";
const key = (name: string): string => `${dir}default/${name}`;
const labelled = (o: KubeObject): boolean => (o.metadata["labels"] as Record<string, string> | undefined)?.["app"] === "web";

/**
 * Engines that fan out themselves hand one event object to every matching watcher, and the watch
 * side parses its values once for all of them (kv-watch.ts decodeShared). Consumers modify what
 * they get (the Service watch defaults objects in place, informers keep them), so every watcher
 * must still own its objects.
 */
describeEachBackend(
  "watch fan-out",
  (ctx) => {
    let store: Store;
    const backend = ctx.backend;
    beforeEach(() => {
      store = ctx.store;
    });

    it("gives every watcher of the same keys its own objects, with the right revisions", async () => {
      const from = String(await store.currentRevision());
      const watches = [
        store.watch(dir, { resourceVersion: from, recursive: true }),
        store.watch(dir, { resourceVersion: from, recursive: true }),
        store.watch(dir, { resourceVersion: from, recursive: true, predicate: labelled }),
        store.watch(key("a"), { resourceVersion: from }),
      ];
      const a = await store.create(
        key("a"),
        testObject("a", { metadata: { name: "a", namespace: "default", labels: { app: "web" } }, data: { v: "1" } }),
      );
      const a2 = await store.guaranteedUpdate(key("a"), (cur) => ({ ...cur, data: { v: "2" } }));
      await store.delete(key("a"));
      const got = await Promise.all(watches.map((w) => collect(w, 3)));
      const [first, ...others] = got as [WatchEvent[], ...WatchEvent[][]];
      const types = first.map((e) => e.type);
      expect(types).toEqual(["ADDED", "MODIFIED", "DELETED"]);
      for (const evs of others) expect(evs.map((e) => e.type)).toEqual(types);
      expect(first[0]!.object).toEqual(a);
      expect(first[1]!.object).toEqual(a2);
      const deletedAt = first[2]!.object.metadata.resourceVersion;
      expect(Number(deletedAt)).toBeGreaterThan(Number(a2.metadata.resourceVersion));
      // Every watcher's objects equal, none the same object; changing one watcher's changes no other's.
      for (let i = 0; i < 3; i++) {
        const objs = got.map((evs) => evs[i]!.object as KubeObject);
        expect(new Set(objs).size).toBe(objs.length);
        for (const o of objs) expect(o).toEqual(objs[0]);
        const snapshot = structuredClone(objs[1]);
        objs[0]!.metadata.resourceVersion = "scribbled";
        (objs[0]!["data"] as Record<string, string>)["v"] = "scribbled";
        (objs[0]!.metadata["labels"] as Record<string, string>)["app"] = "scribbled";
        for (const o of objs.slice(1)) expect(o).toEqual(snapshot);
      }
      for (const evs of others) expect(evs[2]!.object.metadata.resourceVersion).toBe(deletedAt);
    });

    it.skipIf(backend === "etcd")("parses each event's value once for all its watchers, and no old value it does not need", async () => {
      const from = String(await store.currentRevision());
      const watches = [0, 1, 2].map(() => store.watch(dir, { resourceVersion: from, recursive: true }));
      // Subscribed before the writes, so they get live events (a replay is per watcher).
      await new Promise((r) => setTimeout(r, 20));
      const parse = vi.spyOn(JSON, "parse");
      // Writes whose own results need no parse (create, txn update): what remains is the watches',
      // and sqlite's watchers get the writers' decoded values of its own writes (codec.ts decodeKV).
      const a = await store.create(key("a"), testObject("a"));
      await store.txn([{ type: "update", key: key("a"), obj: { ...a, data: { v: "2" } } }]);
      const got = await Promise.all(watches.map((w) => collect(w, 2)));
      expect(got.map((evs) => evs.map((e) => e.type))).toEqual([0, 1, 2].map(() => ["ADDED", "MODIFIED"]));
      expect(parse).toHaveBeenCalledTimes(backend === "sqlite" ? 0 : 2);
    });
  },
  { sharedHistory: true, seed: true },
);
