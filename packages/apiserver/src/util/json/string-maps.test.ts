import { describe, expect, it } from "vitest";
import { TurnBudget } from "../eventloop/turn-budget.ts";
import { turnsDuring } from "../eventloop/testing.ts";
import { isStringMap, jsonWithMarkedMaps, jsonWithSlicedMaps, markStringMap, sliceEntries, stringMapJSON } from "./string-maps.ts";

function manyLabels(n: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`l${i.toString(36)}`, "v"]));
}

describe("stringMapJSON", () => {
  // Keys JSON.stringify writes first (array indices), escapes, and replacement patterns a splice must keep.
  const odd = { ...manyLabels(2 * sliceEntries), "7": "seven", 'q"\\': "$&$'", "\u2028": "\u0000" };

  it("writes Object.keys order exactly as JSON.stringify does", async () => {
    expect(await stringMapJSON(odd, Object.keys(odd), new TurnBudget(0))).toBe(JSON.stringify(odd));
  });

  it("gives the event loop a turn per slice", async () => {
    const m = manyLabels(8 * sliceEntries);
    expect(await turnsDuring(stringMapJSON(m, Object.keys(m), new TurnBudget(0)))).toBeGreaterThanOrEqual(8);
  });
});

describe("jsonWithSlicedMaps", () => {
  const obj = (labels: Record<string, string>) => ({
    kind: "X",
    metadata: { name: "a", labels, uid: "u", annotations: { a: "$'" } },
    spec: { s: "$&" },
  });

  it("writes what JSON.stringify writes, the maps in place of their markers", async () => {
    const labels = { ...manyLabels(2 * sliceEntries), "3": "x" };
    const o = obj(labels);
    const json = jsonWithSlicedMaps(o.metadata, [{ member: "labels", map: labels, keys: Object.keys(labels) }], (metadata) => ({
      ...o,
      metadata,
    }));
    expect(await json!.finish(new TurnBudget(0))).toBe(JSON.stringify(o));
    expect(o.metadata.labels).toBe(labels);
  });

  it("writes the rest at once: a change made while the maps are written is not in the text", async () => {
    const labels = manyLabels(4 * sliceEntries);
    const o = obj(labels);
    const want = JSON.stringify(o);
    const json = jsonWithSlicedMaps(o.metadata, [{ member: "labels", map: labels, keys: Object.keys(labels) }], (metadata) => ({
      ...o,
      metadata,
    }));
    o.spec.s = "changed";
    o.metadata.name = "changed";
    expect(await json!.finish(new TurnBudget(0))).toBe(want);
  });
});

describe("markStringMap", () => {
  it("marks the map itself, not its copies", () => {
    const m = manyLabels(3);
    expect(isStringMap(m)).toBe(false);
    markStringMap(m);
    expect(isStringMap(m)).toBe(true);
    expect(isStringMap({ ...m })).toBe(false);
    expect(isStringMap(undefined)).toBe(false);
  });
});

describe("jsonWithMarkedMaps", () => {
  it("gives undefined for a value JSON.stringify cannot write (an int64 bigint): the caller writes it at once", () => {
    const labels = { a: "b" };
    markStringMap(labels);
    expect(jsonWithMarkedMaps({ metadata: { labels }, spec: { num: 9223372036854775807n } })).toBeUndefined();
  });

  it("writes marked maps wherever they are, in their own key order, exactly as JSON.stringify does, in turns", async () => {
    const labels = { ...manyLabels(4 * sliceEntries), "2": "x" };
    const fields = Object.fromEntries(Object.keys(labels).map((k) => [`f:${k}`, {}]));
    markStringMap(labels);
    markStringMap(fields);
    const o = { metadata: { labels, managedFields: [{ fieldsV1: { "f:metadata": { "f:labels": fields } } }] }, spec: { a: "$&" } };
    let json = "";
    const turns = await turnsDuring(
      jsonWithMarkedMaps(o)!
        .finish(new TurnBudget(0))
        .then((j) => (json = j)),
    );
    expect(json).toBe(JSON.stringify(o));
    expect(turns).toBeGreaterThanOrEqual(8);
  });

  it("writes an object without marked maps as JSON.stringify does", async () => {
    const o = { a: [1, { b: "c" }], d: null };
    expect(await jsonWithMarkedMaps(o)!.finish(new TurnBudget(0))).toBe(JSON.stringify(o));
  });
});
