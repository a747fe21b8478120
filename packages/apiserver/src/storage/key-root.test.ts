import { describe, expect, it } from "vitest";
import { describeEachBackend } from "./backend-suite.ts";
import { normalizeEtcdPrefix, withKeyRoot } from "./key-root.ts";
import { KVStore } from "./kv-store.ts";
import { createMemoryEngine } from "./memory/memory-engine.ts";
import { createStore } from "./storage.ts";
import { collect, testObject } from "./testing.ts";

const cm = (name: string): string => `/registry/configmaps/default/${name}`;

describe('normalizeEtcdPrefix (upstream path.Join("/", prefix))', () => {
  it.each([
    ["/registry", "/registry"],
    ["tenant-a", "/tenant-a"],
    ["/tenant-a/", "/tenant-a"],
    ["//a//b/", "/a/b"],
    ["/a/../b", "/b"],
    ["/", ""],
    ["", ""],
  ])("%j -> %j", (given, want) => expect(normalizeEtcdPrefix(given)).toBe(want));
});

describe("withKeyRoot on the memory engine", () => {
  it("stores /registry keys under the new root and hands them back as /registry keys", async () => {
    const engine = createMemoryEngine();
    const store = new KVStore(withKeyRoot(engine, "/registry", "/tenant-a"), "");
    const watch = store.watch("/registry/configmaps/", { recursive: true, resourceVersion: "0" });
    const events = collect(watch, 3);
    for (const n of ["a", "b", "c"]) await store.create(cm(n), testObject(n));
    const raw = await engine.range("", "\u{10FFFF}", {});
    expect(raw.kvs.map((kv) => kv.key)).toEqual([
      "/tenant-a/configmaps/default/a",
      "/tenant-a/configmaps/default/b",
      "/tenant-a/configmaps/default/c",
    ]);
    const page1 = await store.list("/registry/configmaps/default", { limit: 2 });
    expect(page1.items.map((o) => o.metadata.name)).toEqual(["a", "b"]);
    const page2 = await store.list("/registry/configmaps/default", { limit: 2, continue: page1.continue! });
    expect(page2.items.map((o) => o.metadata.name)).toEqual(["c"]);
    expect(await store.count("/registry/configmaps")).toBe(3);
    expect((await events).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(["ADDED a", "ADDED b", "ADDED c"]);
    await store.close();
  });

  it("reports a conflicting key of a transaction under /registry", async () => {
    const store = new KVStore(withKeyRoot(createMemoryEngine(), "/registry", ""), "");
    await store.create(cm("a"), testObject("a"));
    const err = await store.txn([{ type: "create", key: cm("a"), obj: testObject("a") }]).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: { reason: "AlreadyExists", code: 409 } });
    expect(await store.get(cm("a"))).toMatchObject({ metadata: { name: "a" } });
  });

  it("refuses a key outside /registry instead of storing it somewhere unexpected", async () => {
    const store = new KVStore(withKeyRoot(createMemoryEngine(), "/registry", "/tenant-a"), "");
    const err = await store.create("/elsewhere/x", testObject("x")).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: { code: 500 } });
    expect(String((err as Error).message)).toContain('storage key "/elsewhere/x" is outside the key root /registry');
  });

  it("is the engine itself for the default root", () => {
    const engine = createMemoryEngine();
    expect(withKeyRoot(engine, "/registry", "/registry")).toBe(engine);
  });
});

// On the shared backends, stores with another --etcd-prefix see another key space.
describeEachBackend(
  "--etcd-prefix",
  (ctx) => {
    it("keeps objects apart from the default root and finds them again under the same prefix", async () => {
      await ctx.store.create(cm("a"), testObject("a"));
      expect((await ctx.store.list("/registry/configmaps")).items.map((o) => o.metadata.name)).toEqual(["a"]);
      if (ctx.backend === "memory") return; // one store per engine: nothing shared to look at
      const plain = await createStore({ ...ctx.t.config, etcdPrefix: undefined, compaction: undefined });
      const same = await createStore({ ...ctx.t.config, etcdPrefix: "tenant-a/", compaction: undefined });
      try {
        expect(await plain.get(cm("a"), { ignoreNotFound: true })).toBeNull();
        expect(await same.get(cm("a"))).toMatchObject({ metadata: { name: "a" } });
      } finally {
        await plain.close();
        await same.close();
      }
    });
  },
  { extra: { etcdPrefix: "/tenant-a" } },
);
