// Each stored version encoded once per encoder (upstream cacher/caching_object_test.go's
// TestCachingObject*): the same bytes out, a new resourceVersion re-encoded, encoders and stores
// kept apart, and the byte bound held.
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../storage/index.ts";
import { EncodedObjectCache, encodedCacheOf } from "./encoded-cache.ts";

const svc = (name: string, rv: string | undefined, labels: Record<string, string> = {}, namespace = "ns"): KubeObject => ({
  kind: "Service",
  apiVersion: "v1",
  metadata: { name, namespace, labels, ...(rv === undefined ? {} : { resourceVersion: rv }) },
});

/** An encode function that counts its calls. */
function counting(): { encode: (o: KubeObject) => unknown; calls: () => number } {
  let n = 0;
  return {
    encode: (o) => {
      n++;
      return { wrapped: o };
    },
    calls: () => n,
  };
}

describe("EncodedObjectCache", () => {
  it("encodes a version once and serves the same bytes after", () => {
    const cache = new EncodedObjectCache();
    const enc = counting();
    const encoder = {};
    const first = cache.encode(encoder, svc("a", "5", { x: "1" }), enc.encode);
    expect(first).toBe(JSON.stringify({ wrapped: svc("a", "5", { x: "1" }) }));
    expect(cache.encode(encoder, svc("a", "5", { x: "1" }), enc.encode)).toBe(first);
    expect(enc.calls()).toBe(1);
  });

  it("re-encodes an updated object (a new resourceVersion) and drops the older version", () => {
    const cache = new EncodedObjectCache();
    const enc = counting();
    const encoder = {};
    cache.encode(encoder, svc("a", "5", { x: "1" }), enc.encode);
    const updated = cache.encode(encoder, svc("a", "6", { x: "2" }), enc.encode);
    expect(JSON.parse(updated)).toEqual({ wrapped: svc("a", "6", { x: "2" }) });
    expect(enc.calls()).toBe(2);
    expect(cache.stats()).toEqual({ entries: 1, bytes: updated.length });
  });

  it("serves a re-created object (same name, new resourceVersion) as it is now", () => {
    const cache = new EncodedObjectCache();
    const enc = counting();
    const encoder = {};
    cache.encode(encoder, svc("a", "5", { old: "y" }), enc.encode);
    expect(JSON.parse(cache.encode(encoder, svc("a", "9", { fresh: "y" }), enc.encode))).toEqual({
      wrapped: svc("a", "9", { fresh: "y" }),
    });
  });

  it("keeps encoders, namespaces and names apart", () => {
    const cache = new EncodedObjectCache();
    const json = {};
    const partial = {};
    const full = cache.encode(json, svc("a", "5"), (o) => o);
    const meta = cache.encode(partial, svc("a", "5"), (o) => ({ metadata: o.metadata }));
    expect(meta).not.toBe(full);
    expect(JSON.parse(meta)).toEqual({ metadata: svc("a", "5").metadata });
    expect(JSON.parse(cache.encode(json, svc("a", "5", {}, "other"), (o) => o))).toEqual(svc("a", "5", {}, "other"));
    expect(JSON.parse(cache.encode(json, svc("b", "5"), (o) => o))).toEqual(svc("b", "5"));
    expect(cache.stats().entries).toBe(4);
  });

  it("does not cache objects without a resourceVersion (not read from storage)", () => {
    const cache = new EncodedObjectCache();
    const enc = counting();
    cache.encode({}, svc("a", undefined), enc.encode);
    cache.encode({}, svc("a", undefined), enc.encode);
    expect(enc.calls()).toBe(2);
    expect(cache.stats().entries).toBe(0);
  });

  it("holds at most maxBytes, the least recently used out first", () => {
    const one = JSON.stringify(svc("a", "1")).length;
    const cache = new EncodedObjectCache(one * 2);
    const enc = counting();
    const encoder = {};
    cache.encode(encoder, svc("a", "1"), (o) => o);
    cache.encode(encoder, svc("b", "1"), (o) => o);
    cache.encode(encoder, svc("a", "1"), (o) => o); // a is now the most recently used
    cache.encode(encoder, svc("c", "1"), (o) => o); // b goes
    expect(cache.stats()).toEqual({ entries: 2, bytes: one * 2 });
    cache.encode(encoder, svc("a", "1"), enc.encode);
    cache.encode(encoder, svc("b", "1"), enc.encode);
    expect(enc.calls()).toBe(1);
  });

  it("does not cache an encoding larger than the whole bound", () => {
    const cache = new EncodedObjectCache(10);
    cache.encode({}, svc("a", "1"), (o) => o);
    expect(cache.stats()).toEqual({ entries: 0, bytes: 0 });
  });

  it("keeps an object's encoding on the object, found by identity past the bound, until its resourceVersion changes", () => {
    const cache = new EncodedObjectCache(10);
    const enc = counting();
    const encoder = {};
    const shared = svc("a", "1", { x: "1" });
    const first = cache.encode(encoder, shared, enc.encode);
    expect(cache.encode(encoder, shared, enc.encode)).toBe(first);
    expect(enc.calls()).toBe(1);
    // Another encoder, another copy of the same version, an object without a resourceVersion: encoded.
    cache.encode({}, shared, enc.encode);
    cache.encode(encoder, svc("a", "1", { x: "1" }), enc.encode);
    const unstored = svc("b", undefined);
    cache.encode(encoder, unstored, enc.encode);
    cache.encode(encoder, unstored, enc.encode);
    expect(enc.calls()).toBe(5);
    shared.metadata.resourceVersion = "2";
    (shared.metadata.labels as Record<string, string>)["x"] = "2";
    expect(JSON.parse(cache.encode(encoder, shared, enc.encode))).toEqual({ wrapped: svc("a", "2", { x: "2" }) });
  });

  it("has one cache per store", () => {
    const a = {};
    expect(encodedCacheOf(a)).toBe(encodedCacheOf(a));
    expect(encodedCacheOf({})).not.toBe(encodedCacheOf(a));
  });
});
