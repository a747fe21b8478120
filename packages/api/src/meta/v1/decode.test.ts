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

/** unknownFields as it was before its per-schema nodes: the oracle for the table below. */
function referenceUnknownFields(schema: z.ZodType, obj: unknown): string[] {
  type Def = {
    type: string;
    shape?: Record<string, z.ZodType>;
    catchall?: z.ZodType;
    innerType?: z.ZodType;
    element?: z.ZodType;
    valueType?: z.ZodType;
    options?: z.ZodType[];
    getter?: () => z.ZodType;
    in?: z.ZodType;
    left?: z.ZodType;
    right?: z.ZodType;
  };
  const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
  const wrappers = new Set(["optional", "nullable", "default", "prefault", "catch", "readonly", "nonoptional"]);
  const unwrap = (schema: z.ZodType): z.ZodType => {
    let s = schema;
    for (;;) {
      const d = defOf(s);
      if (d.innerType && wrappers.has(d.type)) s = d.innerType;
      else if (d.type === "lazy" && d.getter) s = d.getter();
      else if (d.type === "pipe" && d.in) s = d.in;
      else return s;
    }
  };
  const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  const walk = (schema: z.ZodType, value: unknown, path: string[], out: string[]): void => {
    const d = defOf(unwrap(schema));
    if (d.type === "object" && d.shape && isPlain(value)) {
      const open = d.catchall !== undefined && defOf(d.catchall).type !== "never";
      for (const k of Object.keys(value)) {
        const child = Object.hasOwn(d.shape, k) ? d.shape[k] : undefined;
        if (child) {
          path.push(`.${k}`);
          walk(child, value[k], path, out);
          path.pop();
        } else if (!open) out.push(`${path.join("")}.${k}`);
      }
    } else if (d.type === "array" && d.element && Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(`[${i}]`);
        walk(d.element, value[i], path, out);
        path.pop();
      }
    } else if (d.type === "record" && d.valueType && isPlain(value)) {
      for (const k of Object.keys(value)) {
        path.push(`[${k}]`);
        walk(d.valueType, value[k], path, out);
        path.pop();
      }
    } else if (d.type === "union" && d.options) {
      let best: string[] | null = null;
      for (const opt of d.options) {
        const acc: string[] = [];
        walk(opt, value, path, acc);
        if (best === null || acc.length < best.length) best = acc;
      }
      out.push(...(best ?? []));
    } else if (d.type === "intersection" && d.left && d.right) {
      const l: string[] = [];
      const r: string[] = [];
      walk(d.left, value, path, l);
      walk(d.right, value, path, r);
      out.push(...l.filter((p) => r.includes(p)));
    }
  };
  const out: string[] = [];
  walk(schema, obj, [], out);
  return out;
}

interface Tree {
  name?: string;
  children?: Tree[];
}
const TreeSchema: z.ZodType<Tree> = z.lazy(() => z.object({ name: z.string().optional(), children: z.array(TreeSchema).optional() }));
const Odd = z.object({
  union: z.union([z.object({ a: z.number() }), z.object({ b: z.number(), c: z.number() })]).optional(),
  both: z.intersection(z.object({ x: z.number() }), z.object({ y: z.number() })).optional(),
  byName: z.record(z.string(), z.object({ v: z.string() })).optional(),
  open: z.object({ known: z.string() }).catchall(z.unknown()).optional(),
  closed: z.object({ known: z.string() }).catchall(z.never()).optional(),
  tree: TreeSchema.optional(),
  list: z.array(z.array(z.object({ q: z.string() }))).optional(),
});

describe("unknownFields equals the walk it replaced", () => {
  const bodies: [string, z.ZodType, unknown][] = [
    [
      "Thing, valid",
      Thing,
      {
        metadata: { name: "a", labels: { x: "y" }, managedFields: [{ manager: "m", fieldsV1: { "f:a": {} } }] },
        spec: { ports: [{ port: 1, targetPort: "x" }], selector: { a: "b" } },
      },
    ],
    [
      "Thing, unknown everywhere",
      Thing,
      {
        x: 1,
        metadata: { nam: "x", ownerReferences: [{ uid: "u", extra: 1 }] },
        spec: { ports: [{ port: 1, p: 2 }, null, 5, { q: 1 }], selector: { a: { deep: 1 } }, z: [1] },
      },
    ],
    ["Thing, wrong types", Thing, { metadata: "x", spec: { ports: { port: 1, x: 2 }, selector: ["a"] } }],
    [
      "Thing, prototype names",
      Thing,
      JSON.parse('{"__proto__":{"x":1},"constructor":{"prototype":{}},"spec":{"toString":1,"ports":[{"hasOwnProperty":1}]}}'),
    ],
    ["Thing, not an object", Thing, [1, { a: 2 }]],
    ["Odd, unions: fewest unknowns, first on a tie", Odd, { union: { a: 1, b: 2, z: 3 }, both: { x: 1, y: 2, w: 3 } }],
    ["Odd, union of neither", Odd, { union: { p: 1, q: 2 } }],
    ["Odd, records of objects", Odd, { byName: { one: { v: "1", w: 2 }, two: { u: 1 }, three: "x" } }],
    ["Odd, open and closed catchall", Odd, { open: { known: "k", other: { deep: 1 } }, closed: { known: "k", other: 1 } }],
    ["Odd, recursive schema", Odd, { tree: { name: "a", x: 1, children: [{ name: "b", children: [{ y: 2, children: [] }] }, { z: 3 }] } }],
    ["Odd, nested arrays", Odd, { list: [[{ q: "a", r: 1 }], [{ s: 2 }, null], "x"] }],
  ];
  it.each(bodies)("%s", (_n, schema, body) => {
    const want = referenceUnknownFields(schema, body);
    expect(unknownFields(schema, body)).toEqual(want);
    // Again, from the kept nodes.
    expect(unknownFields(schema, body)).toEqual(want);
  });

  it("finds what the table is about", () => {
    expect(unknownFields(Odd, { union: { a: 1, b: 2, z: 3 }, both: { x: 1, y: 2, w: 3 } })).toEqual([".union.b", ".union.z", ".both.w"]);
    expect(unknownFields(Odd, { tree: { children: [{ children: [{ y: 2 }] }] } })).toEqual([".tree.children[0].children[0].y"]);
  });
});

describe("decodeObject of an owned body equals decoding a copy", () => {
  const Opaque = z.object({ metadata: ObjectMetaSchema.optional(), data: z.unknown().optional(), spec: Thing.shape.spec });
  const bodies: [string, z.ZodType, string][] = [
    [
      "no nulls",
      Thing,
      '{"metadata":{"name":"a","labels":{"x":"y"}},"spec":{"ports":[{"port":1,"targetPort":"http"}],"selector":{"a":"b"}}}',
    ],
    ["a null member", Thing, '{"metadata":{"name":"a","creationTimestamp":null},"spec":{"ports":[{"port":80}]}}'],
    ["a null deep in a list", Thing, '{"spec":{"ports":[{"port":80},{"port":81,"targetPort":null}]}}'],
    ["a null list item", Thing, '{"spec":{"ports":[null,{"port":80}]}}'],
    ["a null record value", Thing, '{"spec":{"selector":{"a":null,"b":"c"}}}'],
    ["__proto__ at the top", Thing, '{"__proto__":{"x":1},"spec":{"ports":[]}}'],
    ["__proto__ deep down", Thing, '{"spec":{"ports":[{"port":1,"__proto__":{"port":2}}]}}'],
    ["constructor and toString", Thing, '{"constructor":{"prototype":{}},"spec":{"toString":1}}'],
    ["unknown fields", Thing, '{"kind":"X","spec":{"ports":[{"port":1,"x":2}],"y":[null]}}'],
    ["a type error", Thing, '{"spec":{"ports":[{"port":"eighty"}]}}'],
    ["a null where an object is due", Thing, '{"spec":null}'],
    ["opaque content", Opaque, '{"data":{"deep":[1,{"a":"b"}]},"spec":{"ports":[]}}'],
    ["opaque content with a null", Opaque, '{"data":{"deep":[1,{"a":null}]}}'],
    ["not an object", Thing, "[1,2]"],
  ];
  it.each(bodies)("%s", (_n, schema, text) => {
    const copy = decodeObject(schema, JSON.parse(text));
    const owned = decodeObject(schema, JSON.parse(text), { owned: true });
    expect(owned.ok).toBe(copy.ok);
    expect(owned.unknownFields).toEqual(copy.unknownFields);
    if (owned.ok && copy.ok) {
      expect(owned.value).toStrictEqual(copy.value);
      expect(JSON.stringify(owned.value)).toBe(JSON.stringify(copy.value));
    }
    if (!owned.ok && !copy.ok) expect(owned.error.issues).toEqual(copy.error.issues);
  });

  it("decodes an owned body without nulls as it is, and copies one with nulls", () => {
    const Opaque = z.object({ data: z.unknown().optional(), other: z.string().optional() });
    const clean = { data: { deep: [1] } };
    const owned = decodeObject(Opaque, clean, { owned: true });
    expect(owned.ok && owned.value.data).toBe(clean.data);
    const notOwned = decodeObject(Opaque, clean);
    expect(notOwned.ok && notOwned.value.data).not.toBe(clean.data);
    const withNull = { data: { deep: [1] }, other: null };
    const copied = decodeObject(Opaque, withNull, { owned: true });
    expect(copied.ok && copied.value.data).not.toBe(withNull.data);
    expect(copied.ok && copied.value).toStrictEqual({ data: { deep: [1] } });
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
