import { describe, expect, it } from "vitest";
import { z } from "zod";
import { decodeObject, dropNulls, unknownFieldMessage, unknownFields } from "./decode.ts";
import { ObjectMetaSchema } from "./object-meta.ts";
import { WatchEventSchema } from "./watch-event.ts";

const Thing = z.object({
  metadata: ObjectMetaSchema.optional(),
  spec: z
    .object({
      ports: z.array(z.object({ port: z.number(), targetPort: z.union([z.number(), z.string()]).optional() })).optional(),
      selector: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});

describe("unknownFields", () => {
  it.each<[string, unknown, string[]]>([
    ["none", { metadata: { name: "a", labels: { x: "y" } }, spec: { ports: [{ port: 1 }] } }, []],
    ["top level", { kind: "X" }, [".kind"]],
    ["nested", { spec: { foo: 1 } }, [".spec.foo"]],
    ["in array items", { spec: { ports: [{ port: 1 }, { port: 2, bar: true }] } }, [".spec.ports[1].bar"]],
    ["record values are free", { spec: { selector: { anything: "goes" } } }, []],
    ["several, in order", { a: 1, metadata: { nam: "x" }, b: 2 }, [".a", ".metadata.nam", ".b"]],
  ])("%s", (_n, obj, want) => expect(unknownFields(Thing, obj)).toEqual(want));

  it("reports `constructor` and `__proto__` as unknown instead of walking Object.prototype", () => {
    const body = JSON.parse('{"__proto__":{"x":1},"constructor":{"prototype":{}},"spec":{"toString":1}}') as unknown;
    expect(unknownFields(Thing, body)).toEqual([".__proto__", ".constructor", ".spec.toString"]);
    expect(decodeObject(Thing, body).ok).toBe(true);
  });

  it("does not descend into opaque content", () => {
    expect(unknownFields(WatchEventSchema, { type: "ADDED", object: { whatever: { deep: 1 } } })).toEqual([]);
    expect(unknownFields(ObjectMetaSchema, { managedFields: [{ manager: "m", fieldsV1: { "f:spec": {} } }] })).toEqual([]);
  });
});

describe("decodeObject", () => {
  it("drops nulls and unknown fields, and reports the unknown ones", () => {
    const r = decodeObject(Thing, { metadata: { name: "a", creationTimestamp: null }, spec: { ports: [{ port: 80, x: 1 }] } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toEqual({ metadata: { name: "a" }, spec: { ports: [{ port: 80 }] } });
    expect(r.unknownFields).toEqual([".spec.ports[0].x"]);
    expect(unknownFieldMessage(r.unknownFields[0]!)).toBe('unknown field "spec.ports[0].x"');
  });

  it("fails on type errors", () => {
    const r = decodeObject(Thing, { spec: { ports: [{ port: "eighty" }] } });
    expect(r.ok).toBe(false);
  });

  it("dropNulls keeps arrays and non-null values", () => {
    expect(dropNulls({ a: null, b: [{ c: null, d: 1 }], e: 0 })).toEqual({ b: [{ d: 1 }], e: 0 });
  });
});
