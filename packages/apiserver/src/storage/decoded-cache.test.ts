/**
 * Large values are parsed once per revision and their large metadata members shared between
 * reads, every other part copied; small values are parsed per read; LISTs and GETs that only read
 * (`shareLarge`) go through the cache.
 */
import { afterEach, describe, expect, it } from "vitest";
import { decode, encode } from "./codec.ts";
import { DecodedValueCache, sharedDecodeMinBytes } from "./decoded-cache.ts";
import type { KubeObject } from "./interfaces.ts";
import type { RawKV } from "./kv.ts";
import { KVStore } from "./kv-store.ts";
import { openTestEngine, testObject, type TestEngine } from "./testing.ts";

/** A ConfigMap whose labels make its stored JSON longer than `sharedDecodeMinBytes`. */
function large(name: string, mark = "v"): KubeObject {
  const labels = Object.fromEntries(Array.from({ length: sharedDecodeMinBytes / 8 }, (_, i) => [`l${i}`, mark]));
  return testObject(name, {
    metadata: { name, namespace: "default", labels, annotations: { a: "b" }, managedFields: [{ manager: "m", fieldsV1: { "f:x": {} } }] },
    data: { k: "v" },
  });
}

const kvOf = (key: string, obj: KubeObject, modRevision: number): RawKV => ({ key, value: encode(obj), modRevision, createRevision: 1 });

describe("DecodedValueCache", () => {
  it("answers what decode answers, byte for byte and in key order", () => {
    const kv = kvOf("/k", large("a"), 7);
    const c = new DecodedValueCache();
    const first = c.decode(kv);
    const second = c.decode(kv);
    const want = JSON.stringify(decode(kv.value, kv.modRevision));
    expect(JSON.stringify(first)).toBe(want);
    expect(JSON.stringify(second)).toBe(want);
    expect(first.metadata.resourceVersion).toBe("7");
  });

  it("shares labels, annotations and managedFields within one revision and copies the rest", () => {
    const kv = kvOf("/k", large("a"), 7);
    const c = new DecodedValueCache();
    const first = c.decode(kv);
    const second = c.decode(kv);
    expect(second.metadata.labels).toBe(first.metadata.labels);
    expect(second.metadata.annotations).toBe(first.metadata.annotations);
    expect(second.metadata.managedFields).toBe(first.metadata.managedFields);
    expect(second).not.toBe(first);
    expect(second.metadata).not.toBe(first.metadata);
    expect(second["data"]).not.toBe(first["data"]);
    // A reader's changes to what is copied (the Decorator's read-time defaulting) stay its own.
    (first["data"] as Record<string, string>)["k"] = "changed";
    first.metadata.labels = {};
    expect(c.decode(kv)["data"]).toEqual({ k: "v" });
    expect(Object.keys(c.decode(kv).metadata.labels ?? {}).length).toBe(sharedDecodeMinBytes / 8);
  });

  it("parses a new revision of the key and drops the older one", () => {
    const c = new DecodedValueCache();
    const old = c.decode(kvOf("/k", large("a", "old"), 7));
    const next = c.decode(kvOf("/k", large("a", "new"), 9));
    expect(next.metadata.labels).not.toBe(old.metadata.labels);
    expect((next.metadata.labels as Record<string, string>)["l0"]).toBe("new");
    expect(next.metadata.resourceVersion).toBe("9");
    expect(c.stats().entries).toBe(1);
  });

  it("parses small values for every read and keeps nothing", () => {
    const kv = kvOf("/k", testObject("s", { metadata: { name: "s", labels: { a: "b" } } }), 3);
    const c = new DecodedValueCache();
    expect(c.decode(kv).metadata.labels).not.toBe(c.decode(kv).metadata.labels);
    expect(c.stats()).toEqual({ entries: 0, bytes: 0 });
  });

  it("hands read-only readers one decoding per revision, of small values too, and copies to the others", () => {
    const small = kvOf("/s", testObject("s", { metadata: { name: "s", labels: { a: "b" } } }), 3);
    const c = new DecodedValueCache();
    const first = c.shared(small);
    expect(c.shared(small)).toBe(first);
    expect(JSON.stringify(first)).toBe(JSON.stringify(decode(small.value, 3)));
    expect(c.stats()).toEqual({ entries: 1, bytes: small.value.length });
    const next = c.shared(kvOf("/s", testObject("s", { metadata: { name: "s", labels: { a: "c" } } }), 5));
    expect(next).not.toBe(first);
    expect(next.metadata.resourceVersion).toBe("5");
    expect(c.stats().entries).toBe(1);
    const big = kvOf("/k", large("a"), 7);
    const shared = c.shared(big);
    const copy = c.decode(big);
    expect(copy).not.toBe(shared);
    expect(copy.metadata.labels).toBe(shared.metadata.labels);
    expect(c.shared(big)).toBe(shared);
  });

  it("keeps the most recently used values within its bound", () => {
    const kvs = ["/a", "/b", "/c"].map((k, i) => kvOf(k, large(k.slice(1)), i + 1));
    const c = new DecodedValueCache(kvs[0]!.value.length * 2);
    for (const kv of kvs) c.decode(kv);
    expect(c.stats().entries).toBe(2);
    const a1 = c.decode(kvs[0]!);
    expect(c.decode(kvs[0]!).metadata.labels).toBe(a1.metadata.labels);
    expect(c.decode(kvs[2]!).metadata.labels).toBe(c.decode(kvs[2]!).metadata.labels);
  });
});

describe.each(["memory", "sqlite"] as const)("a list on %s", (backend) => {
  let t: TestEngine | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it("decodes a large object once per revision for every list that reads it", async () => {
    t = await openTestEngine(backend);
    const store = new KVStore(t.engine, t.prefix);
    await store.create("/registry/configmaps/default/big", large("big"));
    await store.create("/registry/configmaps/default/small", testObject("small"));
    const [a, b] = [await store.list("/registry/configmaps/"), await store.list("/registry/configmaps/")];
    expect(b.items[0]!.metadata.labels).toBe(a.items[0]!.metadata.labels);
    expect(b.items[1]).not.toBe(a.items[1]);
    expect(JSON.stringify(b.items)).toBe(JSON.stringify(a.items));
  });

  it("gives read-only lists the same objects until a write, and other lists their own", async () => {
    t = await openTestEngine(backend);
    const store = new KVStore(t.engine, t.prefix);
    const key = "/registry/configmaps/default/small";
    await store.create(key, testObject("small"));
    const a = await store.list("/registry/configmaps/", { readOnly: true });
    const b = await store.list("/registry/configmaps/", { readOnly: true });
    expect(b.items[0]).toBe(a.items[0]);
    expect((await store.list("/registry/configmaps/")).items[0]).not.toBe(a.items[0]);
    const updated = await store.guaranteedUpdate(key, (o) => ({ ...o, data: { k: "new" } }));
    const c = await store.list("/registry/configmaps/", { readOnly: true });
    expect(c.items[0]).not.toBe(a.items[0]);
    expect(c.items[0]!["data"]).toEqual({ k: "new" });
    expect(c.items[0]!.metadata.resourceVersion).toBe(updated.metadata.resourceVersion);
  });

  it("shares a large object's members between GETs that only read, and not with other GETs", async () => {
    t = await openTestEngine(backend);
    const store = new KVStore(t.engine, t.prefix);
    const key = "/registry/configmaps/default/big";
    await store.create(key, large("big"));
    const shared = await store.get(key, { shareLarge: true });
    expect((await store.get(key, { shareLarge: true })).metadata.labels).toBe(shared.metadata.labels);
    expect((await store.list("/registry/configmaps/")).items[0]!.metadata.labels).toBe(shared.metadata.labels);
    const own = await store.get(key);
    expect(own.metadata.labels).not.toBe(shared.metadata.labels);
    expect(JSON.stringify(own)).toBe(JSON.stringify(shared));
  });
});
