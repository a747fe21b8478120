import { describe, expect, it } from "vitest";
import type { KubeObject } from "./interfaces.ts";
import type { KVEvent, RawKV } from "./kv.ts";
import { decodeShared, sharedOrigin, translate } from "./kv-watch.ts";

const raw = (name: string, rev: number, labels: Record<string, string> = {}): RawKV => ({
  key: `/registry/configmaps/default/${name}`,
  value: JSON.stringify({ metadata: { name, namespace: "default", labels }, data: { v: String(rev) } }),
  createRevision: rev,
  modRevision: rev,
});

describe("decodeShared", () => {
  it("gives every mutating receiver its own copy and the last one the master", () => {
    const kv = raw("a", 5);
    const got = [decodeShared(kv, 3), decodeShared(kv, 3), decodeShared(kv, 3)];
    expect(new Set(got).size).toBe(3);
    expect(got.map((o) => o.metadata.resourceVersion)).toEqual(["5", "5", "5"]);
  });

  it("gives read-only receivers one shared copy, never the mutating receivers' objects", () => {
    const kv = raw("b", 6);
    const ro1 = decodeShared(kv, 4, true);
    const mut = decodeShared(kv, 4);
    const ro2 = decodeShared(kv, 4, true);
    const last = decodeShared(kv, 4);
    expect(ro1).toBe(ro2);
    expect(new Set([ro1, mut, last]).size).toBe(3);
    mut.metadata.name = "changed";
    last.metadata.name = "changed too";
    expect(ro1.metadata.name).toBe("b");
    expect(sharedOrigin(ro1)).toBe(sharedOrigin(mut));
  });

  it("hands read-only receivers the master itself: with only read-only receivers an event costs no copy", () => {
    const kv = raw("f", 8);
    const decoded = JSON.parse(kv.value) as KubeObject;
    kv.decoded = decoded;
    const got = [decodeShared(kv, 3, true), decodeShared(kv, 3, true), decodeShared(kv, 3, true)];
    expect(got[0]).toBe(decoded);
    expect(new Set(got).size).toBe(1);
    expect(decoded.metadata.resourceVersion).toBe("8");
  });

  it("gives a mutating last receiver a copy once read-only receivers share the master", () => {
    const kv = raw("g", 9);
    const ro = decodeShared(kv, 2, true);
    const last = decodeShared(kv, 2);
    expect(last).not.toBe(ro);
    last.metadata.name = "changed";
    expect(ro.metadata.name).toBe("g");
  });

  it("hands the master to a read-only last receiver when no read-only copy was made", () => {
    const kv = raw("c", 7);
    const mut = decodeShared(kv, 2);
    const ro = decodeShared(kv, 2, true);
    expect(ro).not.toBe(mut);
    expect(ro.metadata.name).toBe("c");
  });
});

describe("translate with read-only receivers", () => {
  const web = (o: KubeObject): boolean => (o.metadata["labels"] as Record<string, string> | undefined)?.["app"] === "web";

  it("reports a value leaving the predicate at the event's revision without changing the shared copy", () => {
    const before = raw("d", 8, { app: "web" });
    const after = raw("d", 9, { app: "db" });
    // The same RawKV as an earlier event's current value and this event's previous value (the memory engine keeps them).
    const earlier: KVEvent = { type: "put", kv: before, prev: null, receivers: 2 };
    const added = translate(earlier, undefined, true);
    const ev: KVEvent = { type: "put", kv: after, prev: before, receivers: 2 };
    const left = translate(ev, web, true);
    expect(left).toMatchObject({ type: "DELETED", object: { metadata: { name: "d", resourceVersion: "9" } } });
    expect(added).toMatchObject({ type: "ADDED", object: { metadata: { resourceVersion: "8" } } });
  });

  it("reports a deletion at its revision to every read-only watcher without touching the earlier ADDED object", () => {
    const cur = raw("e", 10);
    const added = translate({ type: "put", kv: cur, prev: null, receivers: 2 }, undefined, true);
    const tomb: RawKV = { ...cur, value: "", modRevision: 11 };
    const del1 = translate({ type: "delete", kv: tomb, prev: cur, receivers: 2 }, undefined, true);
    expect(del1).toMatchObject({ type: "DELETED", object: { metadata: { resourceVersion: "11" } } });
    expect(added).toMatchObject({ type: "ADDED", object: { metadata: { resourceVersion: "10" } } });
  });
});
