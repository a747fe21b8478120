import { describe, expect, it } from "vitest";
import { decodeShared } from "../storage/kv-watch.ts";
import type { RawKV } from "../storage/kv.ts";
import { encodedEvent } from "./watch.ts";

const kv = (name: string, rev: number): RawKV => ({
  key: `/registry/services/specs/default/${name}`,
  value: JSON.stringify({ metadata: { name, namespace: "default" }, spec: { ports: [] } }),
  createRevision: rev,
  modRevision: rev,
});

/** Counts encodings; each returns the object's JSON with its call number, so a shared line is visible. */
function counter(): { encode: (o: unknown) => () => string; calls: () => number } {
  let n = 0;
  return { encode: (o) => () => `${++n} ${JSON.stringify(o)}\n`, calls: () => n };
}

describe("encodedEvent", () => {
  it("encodes a value every watcher got a copy of once, and each copy gets that line", () => {
    const raw = kv("a", 7);
    const copies = [decodeShared(raw, 3), decodeShared(raw, 3), decodeShared(raw, 3)];
    expect(new Set(copies).size).toBe(3);
    const c = counter();
    const lines = copies.map((o) => encodedEvent("ADDED", o, c.encode(o), "v1"));
    expect(c.calls()).toBe(1);
    expect(new Set(lines).size).toBe(1);
  });

  it("keeps separate lines per event type, served version and resourceVersion", () => {
    const raw = kv("b", 9);
    const [x, y, z, w] = [decodeShared(raw, 4), decodeShared(raw, 4), decodeShared(raw, 4), decodeShared(raw, 4)];
    const c = counter();
    const added = encodedEvent("ADDED", x, c.encode(x), "v1");
    const modified = encodedEvent("MODIFIED", y, c.encode(y), "v1");
    const beta = encodedEvent("ADDED", z, c.encode(z), "networking.k8s.io/v1beta1");
    // A watcher whose predicate turned the event into a DELETED gets the event's revision.
    w.metadata.resourceVersion = "10";
    const deleted = encodedEvent("ADDED", w, c.encode(w), "v1");
    expect(c.calls()).toBe(4);
    expect(new Set([added, modified, beta, deleted]).size).toBe(4);
  });

  it("encodes objects no other watcher shares every time", () => {
    const o = decodeShared(kv("c", 3), 1);
    const c = counter();
    encodedEvent("ADDED", o, c.encode(o), "v1");
    encodedEvent("ADDED", o, c.encode(o), "v1");
    expect(c.calls()).toBe(2);
  });

  it("leaves the mark out of spreads and JSON", () => {
    const raw = kv("d", 4);
    const o = decodeShared(raw, 2);
    expect(Object.getOwnPropertySymbols({ ...o })).toEqual([]);
    expect(JSON.parse(JSON.stringify(o))).toEqual({
      ...(JSON.parse(raw.value) as object),
      metadata: { name: "d", namespace: "default", resourceVersion: "4" },
    });
  });
});
