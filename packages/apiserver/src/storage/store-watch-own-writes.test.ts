import { beforeEach, expect, it, vi } from "vitest";
import { describeEachBackend } from "./backend-suite.ts";
import type { KubeObject, Store, WatchEvent } from "./interfaces.ts";
import { collect } from "./testing.ts";

// etcd round trips on a shared 2-core machine can be slow; correctness, not speed, is tested here.
vi.setConfig({ testTimeout: 20_000 });

const dir = "/registry/configmaps/";
const key = (name: string): string => `${dir}default/${name}`;

/** Members in an order JSON keeps, integer-like keys, an undefined member the stored JSON drops. */
function written(name: string): KubeObject {
  return {
    kind: "ConfigMap",
    data: { z: "1", "2": "two", a: ["x", { b: "y" }] },
    metadata: { name, namespace: "default", labels: { b: "2", a: "1" }, annotations: undefined },
    apiVersion: "v1",
    gone: undefined,
  };
}

function scribble(obj: KubeObject): void {
  (obj.metadata["labels"] as Record<string, string>)["a"] = "scribbled";
  ((obj["data"] as { a: unknown[] }).a[1] as { b: string }).b = "scribbled";
  obj.metadata.resourceVersion = "1";
}

/**
 * The sqlite engine hands its watchers the writer's decoded value of its own writes instead of
 * parsing the bytes again (KVWrite/RawKV `decoded`, codec.ts decodeKV). Watchers must still get
 * exactly what a read of the stored bytes gives, as objects of their own, untouched by what the
 * writer does with its result or its input afterwards; every backend must agree.
 */
describeEachBackend("watch of a process's own writes", (ctx) => {
  let store: Store;
  beforeEach(() => {
    store = ctx.store;
  });

  it.each([1, 2])("%i watcher(s) get creates and updates as stored, owning their objects", async (n) => {
    const from = String(await store.currentRevision());
    const watches = Array.from({ length: n }, () => store.watch(dir, { resourceVersion: from, recursive: true }));
    const input = written("a");
    const created = await store.create(key("a"), input);
    scribble(created);
    scribble(input);
    const updateTo = written("a");
    const updated = await store.guaranteedUpdate(key("a"), (cur) => ({ ...updateTo, metadata: { ...cur.metadata, labels: { c: "3" } } }));
    const stored = await store.get(key("a"));
    scribble(updated);
    scribble(updateTo);
    const got: WatchEvent[][] = await Promise.all(watches.map((w) => collect(w, 2)));
    for (const evs of got) {
      expect(evs.map((e) => e.type)).toEqual(["ADDED", "MODIFIED"]);
      const [added, modified] = evs.map((e) => e.object) as [KubeObject, KubeObject];
      expect(JSON.stringify(modified)).toBe(JSON.stringify(stored));
      expect(JSON.stringify(added)).toBe(
        JSON.stringify({
          ...stored,
          metadata: { ...stored.metadata, labels: { b: "2", a: "1" }, resourceVersion: added.metadata.resourceVersion },
        }),
      );
      expect(Number(added.metadata.resourceVersion)).toBeLessThan(Number(modified.metadata.resourceVersion));
    }
    // Changing one watcher's object changes nothing else.
    const [mine, ...others] = got.map((evs) => evs[1]!.object as KubeObject);
    scribble(mine!);
    for (const o of others) expect(JSON.stringify(o)).toBe(JSON.stringify(stored));
    expect(JSON.stringify(await store.get(key("a")))).toBe(JSON.stringify(stored));
  });
});
