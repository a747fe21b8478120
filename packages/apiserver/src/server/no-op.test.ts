import { describe, expect, it } from "vitest";
import type { KubeObject } from "../storage/index.ts";
import { canonical, keepNoOp, sameJSON } from "./no-op.ts";

describe("sameJSON = equal canonical text", () => {
  it.each<[string, unknown, unknown]>([
    ["key order", { a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 }],
    ["undefined members", { a: 1, b: undefined }, { a: 1 }],
    ["a changed value", { a: 1 }, { a: 2 }],
    ["a missing key", { a: 1, b: 2 }, { a: 1, c: 2 }],
    ["array order", [1, 2], [2, 1]],
    ["array against object", [1], { 0: 1 }],
    ["null against object", null, {}],
    ["string against number", "1", 1],
    ["-0 against 0", -0, 0],
    ["nested arrays of maps", [{ a: [{ b: null }] }], [{ a: [{ b: null }] }]],
    ["a longer array", [1], [1, 1]],
  ])("%s", (_n, a, b) => {
    expect(sameJSON(a, b)).toBe(canonical(a) === canonical(b));
    expect(sameJSON(b, a)).toBe(canonical(a) === canonical(b));
  });

  it("leaves out the skipped members at the top only", () => {
    const skip = new Set(["m"]);
    expect(sameJSON({ a: 1, m: 1 }, { a: 1, m: 2 }, skip)).toBe(true);
    expect(sameJSON({ a: 1, m: 1 }, { a: 1 }, skip)).toBe(true);
    expect(sameJSON({ a: { m: 1 } }, { a: { m: 2 } }, skip)).toBe(false);
  });
});

describe("keepNoOp", () => {
  const stored = (): KubeObject => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "s", resourceVersion: "5", labels: { a: "1" }, managedFields: [{ manager: "m" }] },
    spec: { ports: [{ port: 80 }] },
  });

  it("keeps the stored object when only managedFields differ", () => {
    const current = stored();
    const next = stored();
    next.metadata = { labels: { a: "1" }, name: "s", resourceVersion: "5", managedFields: [{ manager: "other" }] };
    expect(keepNoOp(current, next)).toBe(current);
  });

  it("keeps the stored object without its resourceVersion when the request has none (the store decides)", () => {
    const current = stored();
    const next = stored();
    next.metadata = { labels: { a: "1" }, name: "s", managedFields: [{ manager: "other" }] };
    const kept = keepNoOp(current, next);
    expect(kept.metadata.resourceVersion).toBeUndefined();
    expect({ ...kept, metadata: { ...kept.metadata, resourceVersion: "5" } }).toEqual(current);
    expect(current.metadata.resourceVersion).toBe("5");
  });

  it("takes the new object when anything else differs", () => {
    const next = stored();
    next.metadata.labels = { a: "2" };
    expect(keepNoOp(stored(), next)).toBe(next);
  });

  it("takes the new object when it names another resourceVersion (a precondition)", () => {
    const next = stored();
    next.metadata.resourceVersion = "4";
    expect(keepNoOp(stored(), next)).toBe(next);
  });

  it("takes the new object on create", () => {
    const next = stored();
    expect(keepNoOp(null, next)).toBe(next);
  });
});
