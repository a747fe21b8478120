import { describe, expect, it } from "vitest";
import { jsonCopy, jsonCopyObject, notPlain } from "./json-copy.ts";
import { markStringMap } from "../util/json/string-maps.ts";

const roundTrip = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

describe("jsonCopy", () => {
  const plain: Record<string, unknown> = {
    nested: { a: [1, "two", true, null, { b: [[]] }], empty: {} },
    "integer-like keys keep JSON's order": { b: 1, "2": 2, a: 3, "1": 4 },
    unicode: "π \u{1F600} \ud800",
    numbers: [0, -0, 1.5, -1e21, 2 ** 53],
    undefinedMembers: { kept: 1, dropped: undefined, nested: { gone: undefined } },
    nullPrototype: Object.assign(Object.create(null) as object, { x: 1 }),
  };

  it.each(Object.entries(plain))("copies %s exactly as a JSON round trip does", (_, v) => {
    const c = jsonCopy(v);
    expect(c).toEqual(roundTrip(v));
    expect(JSON.stringify(c)).toBe(JSON.stringify(v));
    expect(Object.is((c as number[])[1], -0)).toBe(false);
  });

  it("makes a __proto__ member an own member, as JSON.parse does, not the prototype", () => {
    const v = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const c = jsonCopy(v) as Record<string, unknown>;
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
    expect(Object.keys(c)).toEqual(["__proto__", "x"]);
    expect(JSON.stringify(c)).toBe(JSON.stringify(v));
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("shares nothing with its input", () => {
    const v = { a: { b: [{ c: 1 }] } };
    const c = jsonCopy(v) as typeof v;
    v.a.b[0]!.c = 2;
    v.a.b.push({ c: 3 });
    expect(c).toEqual({ a: { b: [{ c: 1 }] } });
  });

  it("shares a marked string map (nobody changes it) and copies everything around it", () => {
    const labels = { a: "b" };
    markStringMap(labels);
    const v = { metadata: { labels, annotations: { c: "d" } }, list: [labels] };
    const c = jsonCopy(v) as typeof v;
    expect(c).toEqual(v);
    expect(c.metadata.labels).toBe(labels);
    expect(c.list[0]).toBe(labels);
    expect(c.metadata).not.toBe(v.metadata);
    expect(c.metadata.annotations).not.toBe(v.metadata.annotations);
  });

  const notJSON: Record<string, unknown> = {
    date: { t: new Date(0) },
    map: { m: new Map() },
    "undefined in an array": [1, undefined],
    "array hole": [1, , 2],
    NaN: { n: Number.NaN },
    Infinity: [Infinity],
    function: { f: () => 1 },
    symbol: { s: Symbol("s") },
    toJSON: { toJSON: () => "x" },
    "class instance": {
      c: new (class Thing {
        x = 1;
      })(),
    },
  };

  it.each(Object.entries(notJSON))("gives up on %s (the caller takes the JSON path)", (_, v) => {
    expect(jsonCopy(v)).toBe(notPlain);
  });

  it("copies a bigint as the util/json round trip reads it back (int64s beyond a double kept)", () => {
    expect(jsonCopy({ a: [9223372036854775807n, 5n, 2n ** 64n] })).toStrictEqual({ a: [9223372036854775807n, 5, 2 ** 64] });
  });

  it("gives up on a cycle instead of overflowing the stack", () => {
    const v: Record<string, unknown> = {};
    v["self"] = v;
    expect(jsonCopy(v)).toBe(notPlain);
  });

  it("jsonCopyObject leaves out the skipped member", () => {
    expect(jsonCopyObject({ a: 1, resourceVersion: "5", b: { resourceVersion: "6" } }, "resourceVersion")).toEqual({
      a: 1,
      b: { resourceVersion: "6" },
    });
  });
});
