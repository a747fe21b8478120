import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import * as api from "../../index.ts";
import * as v1alpha1 from "../../networking/v1alpha1/index.ts";
import * as v1beta1 from "../../networking/v1beta1/index.ts";
import { FAIL, compileParser, safeParseCompiled, type CompiledParse } from "./compile-parser.ts";

type Def = Record<string, unknown> & { type: string };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;
const isSchema = (v: unknown): v is z.ZodType => typeof v === "object" && v !== null && "_zod" in v && "safeParse" in v;

/** Every zod schema the package exports (the root and the networking subpaths that repeat v1's names). */
const schemas: [string, z.ZodType][] = [
  ...Object.entries(api as Record<string, unknown>),
  ...Object.entries(v1beta1 as Record<string, unknown>).map(([k, v]): [string, unknown] => [`v1beta1.${k}`, v]),
  ...Object.entries(v1alpha1 as Record<string, unknown>).map(([k, v]): [string, unknown] => [`v1alpha1.${k}`, v]),
].filter((e): e is [string, z.ZodType] => isSchema(e[1]));

/** mulberry32: a small seeded generator, so every run sees the same cases. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const strings = [
  "",
  "a",
  "web",
  "TCP",
  "2024-05-01T10:00:00Z",
  "2024-07-01T14:34:56.7+02:00",
  "10.0.0.1",
  "ü✓",
  "__proto__",
  "x".repeat(5000),
];
const oddNumbers = [NaN, Infinity, -Infinity, 1.5, -0, 2 ** 53, -(2 ** 53), 2 ** 31, 0, 65535];
const oddValues: unknown[] = [null, undefined, true, "str", 7, [], {}, [1, "x"], { nested: { deep: [null] } }, ...oddNumbers];

/** A value built from the schema's def: mostly valid, with optional parts left out at random. */
function arbitrary(schema: unknown, r: () => number, depth = 0): unknown {
  const d = defOf(schema);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  switch (d.type) {
    case "string":
      return r() < 0.4 ? pick(["2024-05-01T10:00:00Z", "2024-05-01T10:00:00.123456Z"]) : pick(strings.slice(0, 8));
    case "number":
      return r() < 0.5 ? Math.floor(r() * 70000) - 100 : r() < 0.8 ? pick([0, 0.25, 0.5, 1, 2, 5, 10]) : pick(oddNumbers);
    case "boolean":
      return r() < 0.5;
    case "enum":
    case "literal":
      return pick([...((schema as { _zod: { values: Set<unknown> } })._zod.values ?? [])]);
    case "unknown":
    case "any":
      return pick(oddValues);
    case "optional":
      return r() < 0.3 || depth > 6 ? undefined : arbitrary(d["innerType"], r, depth);
    case "nullable":
      return r() < 0.2 ? null : arbitrary(d["innerType"], r, depth);
    case "default":
    case "prefault":
      return r() < 0.3 ? undefined : arbitrary(d["innerType"], r, depth);
    case "readonly":
    case "catch":
    case "nonoptional":
      return arbitrary(d["innerType"], r, depth);
    case "pipe":
      return arbitrary(d["in"], r, depth);
    case "lazy":
      return depth > 4 ? undefined : arbitrary((schema as { _zod: { innerType: unknown } })._zod.innerType, r, depth + 1);
    case "union":
      return arbitrary(pick(d["options"] as unknown[]), r, depth);
    case "array":
      return depth > 6 ? [] : Array.from({ length: Math.floor(r() * 3) }, () => arbitrary(d["element"], r, depth + 1));
    case "record": {
      const out: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 3); i > 0; i--) out[`k${Math.floor(r() * 9)}`] = arbitrary(d["valueType"], r, depth + 1);
      return out;
    }
    case "object": {
      const out: Record<string, unknown> = {};
      const shape = d["shape"] as Record<string, unknown>;
      const keys = Object.keys(shape);
      // Not always in shape order: the output's order must be zod's, whatever the input's.
      if (r() < 0.3) keys.reverse();
      for (const k of keys) {
        const v = arbitrary(shape[k], r, depth + 1);
        if (v !== undefined || r() < 0.1) out[k] = v;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** Paths to every object/array inside `v`, for picking a place to mutate. */
function containers(v: unknown, out: unknown[] = []): unknown[] {
  if (typeof v === "object" && v !== null) {
    out.push(v);
    for (const c of Object.values(v)) containers(c, out);
  }
  return out;
}

function pick2<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

/** One random damage to a copy of `value` (the mutations the issue lists). */
function mutate(value: unknown, r: () => number): unknown {
  const copy = structuredClone(value);
  const spots = containers(copy);
  if (spots.length === 0) return r() < 0.5 ? oddValues[Math.floor(r() * oddValues.length)] : copy;
  const at = spots[Math.floor(r() * spots.length)] as Record<string, unknown>;
  const keys = Object.keys(at);
  const key = keys.length > 0 ? (keys[Math.floor(r() * keys.length)] as string) : "0";
  switch (Math.floor(r() * 9)) {
    case 0:
      delete at[key];
      break;
    case 1:
      at[key] = oddValues[Math.floor(r() * oddValues.length)];
      break;
    case 2:
      at[key] = oddNumbers[Math.floor(r() * oddNumbers.length)];
      break;
    case 3:
      at[`unknown${Math.floor(r() * 3)}`] = { nested: [1, { x: null }] };
      break;
    case 4:
      // An own `__proto__` key, as JSON.parse makes it; and `constructor`.
      Object.assign(
        at,
        JSON.parse(
          pick2(r, [
            '{"__proto__":{"polluted":1},"constructor":{"prototype":{}}}',
            '{"__proto__":{}}',
            '{"__proto__":"s","constructor":"c"}',
          ]),
        ),
      );
      break;
    case 5:
      at[key] = [];
      break;
    case 6:
      at[key] = "y".repeat(100000);
      break;
    case 7:
      at[key] = undefined;
      break;
    default:
      at[key] = typeof at[key] === "string" ? 42 : String(at[key]);
  }
  return copy;
}

/** Every object/array reachable from `v`: zod hands some of them back as they are (z.unknown()). */
function refs(v: unknown, out = new Set<unknown>()): Set<unknown> {
  if (typeof v === "object" && v !== null && !out.has(v)) {
    out.add(v);
    for (const c of Object.values(v)) refs(c, out);
  }
  return out;
}

/** Why `got` is not exactly `want` (same key order, prototypes, numbers by Object.is, shared input references), or undefined. */
function difference(want: unknown, got: unknown, inputs: Set<unknown>, path = "$"): string | undefined {
  if (typeof want !== "object" || want === null) return Object.is(want, got) ? undefined : `${path}: ${String(got)} != ${String(want)}`;
  if (typeof got !== "object" || got === null) return `${path}: not an object`;
  // zod hands back input objects under z.unknown() and copies the rest (a default's nested value
  // may be shared by both results: that is zod's own sharing).
  if (inputs.has(want) ? want !== got : inputs.has(got)) return `${path}: reference differs from zod's`;
  if (Object.getPrototypeOf(want) !== Object.getPrototypeOf(got) || Array.isArray(want) !== Array.isArray(got)) return `${path}: prototype`;
  const wk = Reflect.ownKeys(want);
  const gk = Reflect.ownKeys(got);
  if (wk.join("\0") !== gk.join("\0")) return `${path}: keys [${gk.join(",")}] != [${wk.join(",")}]`;
  for (const k of wk) {
    const diff = difference(
      (want as Record<PropertyKey, unknown>)[k],
      (got as Record<PropertyKey, unknown>)[k],
      inputs,
      `${path}.${String(k)}`,
    );
    if (diff !== undefined) return diff;
  }
  return undefined;
}

/** Cases compared against zod over the whole file, by outcome. */
const compared = { ok: 0, failed: 0 };

/** Compares `parse` with zod on each input: success/failure, JSON text and exact structure. */
function differential(schema: z.ZodType, parse: CompiledParse, inputs: unknown[]): { ok: number; failed: number; mismatches: string[] } {
  const res = { ok: 0, failed: 0, mismatches: [] as string[] };
  for (const input of inputs) {
    const want = schema.safeParse(input);
    const got = parse(input);
    if (!want.success) {
      res.failed++;
      if (got !== FAIL) res.mismatches.push(`accepted what zod rejects: ${JSON.stringify(input)?.slice(0, 200)}`);
      continue;
    }
    res.ok++;
    if (got === FAIL) res.mismatches.push(`rejected what zod accepts: ${JSON.stringify(input)?.slice(0, 200)}`);
    else if (JSON.stringify(got) !== JSON.stringify(want.data))
      res.mismatches.push(`JSON differs: ${JSON.stringify(got)} vs ${JSON.stringify(want.data)}`);
    else {
      const diff = difference(want.data, got, refs(input));
      if (diff !== undefined) res.mismatches.push(diff);
    }
  }
  compared.ok += res.ok;
  compared.failed += res.failed;
  return res;
}

/** Bodies as clients send them (fixtures of the schema tests and the wrk bench). */
const fixtures: Record<string, unknown[]> = {
  ServiceSchema: [
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "svc-1", labels: { app: "svc-1", tier: "backend" } },
      spec: { selector: { app: "svc-1" }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
    },
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: {
        name: "web",
        namespace: "default",
        creationTimestamp: "2024-05-01T10:00:00Z",
        managedFields: [
          {
            manager: "kubectl",
            operation: "Update",
            time: "2024-05-01T10:00:00+02:00",
            fieldsType: "FieldsV1",
            fieldsV1: { "f:spec": { "f:ports": {} } },
          },
        ],
      },
      spec: {
        clusterIPs: ["10.0.0.10", "2000::a"],
        ports: [{ name: "http", nodePort: 30080, port: 80, protocol: "TCP", targetPort: "http" }],
        type: "LoadBalancer",
      },
      status: { loadBalancer: { ingress: [{ ip: "192.0.2.1", ipMode: "VIP" }] } },
    },
  ],
};

describe("compileParser", () => {
  it("finds the package's schemas", () => {
    const names = schemas.map(([n]) => n);
    for (const want of [
      "ServiceSchema",
      "ServiceListSchema",
      "IPAddressSchema",
      "ServiceCIDRSchema",
      "EndpointSliceSchema",
      "EndpointsSchema",
      "ClusterRoleSchema",
      "RoleBindingSchema",
      "ObjectMetaSchema",
      "DeleteOptionsSchema",
      "v1beta1.IPAddressSchema",
    ])
      expect(names).toContain(want);
    expect(schemas.length).toBeGreaterThan(60);
  });

  // Each schema compiled both ways: object parses as generated code and as loops.
  const both = schemas.flatMap(([name, schema]) => [true, false].map((codegen): [string, boolean, z.ZodType] => [name, codegen, schema]));

  it.each(both)("gives zod's result for generated and damaged %s values (codegen %s)", (name, codegen, schema) => {
    const parse = compileParser(schema, { codegen });
    if (parse === null) return expect(defOf(schema).type).not.toMatch(/^(object|array|string|number|boolean)$/);
    const r = rng([...name].reduce((h, c) => Math.imul(h, 31) + c.charCodeAt(0), 7));
    const valid = [...(fixtures[name] ?? []), ...Array.from({ length: 150 }, () => arbitrary(schema, r))];
    const inputs = [...valid, ...valid.flatMap((v) => [mutate(v, r), mutate(mutate(v, r), r)]), ...oddValues];
    const res = differential(schema, parse, inputs);
    expect(res.mismatches.slice(0, 5)).toEqual([]);
    // Both outcomes are exercised, not only one.
    expect(res.ok).toBeGreaterThan(20);
    expect(res.failed).toBeGreaterThan(0);
  });

  // Constructs the package's schemas do not (yet) use, each against generated, damaged and hand-picked values.
  const constructs: [string, z.ZodType][] = [
    ["optional(default)", z.object({ a: z.array(z.string()).default(["d"]).optional(), b: z.string().default("x").optional() })],
    ["nullish and nullable(optional)", z.object({ a: z.string().nullish(), b: z.number().optional().nullable() })],
    ["strict object", z.strictObject({ a: z.string(), b: z.number().optional() })],
    ["loose object", z.looseObject({ a: z.string().optional(), n: z.object({ x: z.number() }).optional() })],
    ["catchall", z.object({ a: z.string() }).catchall(z.number())],
    ["record of unknown", z.record(z.string(), z.unknown())],
    ["record of optional", z.record(z.string(), z.string().optional())],
    ["enum-keyed record (delegated)", z.record(z.enum(["a", "b"]), z.number())],
    [
      "union order",
      z.union([z.object({ a: z.string() }), z.looseObject({ a: z.string(), b: z.number() }), z.string().transform((x) => x.length)]),
    ],
    [
      "numbers",
      z.object({
        a: z.number().min(1).max(10),
        b: z.number().int().positive(),
        c: z.int32(),
        d: z.number().gt(0).lt(1),
        e: z.uint32().optional(),
      }),
    ],
    ["literals and enums", z.object({ a: z.literal(["x", 1, null]), b: z.enum({ A: "a", B: 2 }), c: z.literal(undefined).optional() })],
    [
      "wrappers zod runs",
      z.object({ a: z.string().readonly(), b: z.number().catch(0), c: z.string().prefault("p"), d: z.string().optional().nonoptional() }),
    ],
    // Optional over an inner type that fails on undefined itself, default over an inner output of undefined.
    [
      "optional(failing prefault)",
      z.object({
        a: z
          .number()
          .prefault("x" as unknown as number)
          .optional(),
      }),
    ],
    [
      "default(undefined output)",
      z.object({
        a: z
          .string()
          .transform((): string | undefined => undefined)
          .default("d"),
      }),
    ],
    [
      "pipes",
      z.object({
        a: z.string().pipe(z.string()),
        b: z
          .string()
          .transform((x) => ({ x }))
          .optional(),
      }),
    ],
  ];
  const tricky = [
    {},
    { a: undefined, b: undefined },
    JSON.parse('{"__proto__":{"x":1},"a":"s"}') as unknown,
    JSON.parse('{"a":"s","constructor":{"prototype":{}},"toString":1,"__proto__":"v"}') as unknown,
    { a: "s", b: 2 ** 53 },
    { a: 1.5, b: -0, c: 2 ** 31, d: 0.5, e: 2 ** 32 - 1 },
    Object.assign(Object.create({ inherited: 1 }) as object, { a: "s" }),
  ];

  it.each(constructs.flatMap(([n, s]) => [true, false].map((codegen): [string, boolean, z.ZodType] => [n, codegen, s])))(
    "gives zod's result for %s (codegen %s)",
    (name, codegen, schema) => {
      const parse = compileParser(schema, { codegen });
      if (parse === null) return expect(name).toMatch(/delegated/);
      const r = rng(name.length);
      const valid = Array.from({ length: 200 }, () => arbitrary(schema, r));
      const inputs = [...tricky, ...valid, ...valid.flatMap((v) => [mutate(v, r), mutate(mutate(v, r), r)]), ...oddValues];
      const res = differential(schema, parse, inputs);
      expect(res.mismatches.slice(0, 5)).toEqual([]);
      expect(res.ok).toBeGreaterThan(5);
      expect(res.failed).toBeGreaterThan(0);
    },
  );

  it("would catch a wrong key order, a missing default or a copied z.unknown() value", () => {
    const parse = compileParser(api.ServiceSchema) as CompiledParse;
    const reorder: CompiledParse = (v) => {
      const out = parse(v);
      return out === FAIL ? out : Object.fromEntries(Object.entries(out as object).reverse());
    };
    const noDefault: CompiledParse = (v) => {
      const out = parse(v);
      if (out !== FAIL && typeof v === "object" && v !== null && !("spec" in v)) delete (out as Record<string, unknown>)["spec"];
      return out;
    };
    const body = { kind: "Service", metadata: { name: "a" }, spec: { type: "ClusterIP" } };
    expect(differential(api.ServiceSchema, parse, [body, { kind: "Service" }]).mismatches).toEqual([]);
    expect(differential(api.ServiceSchema, reorder, [body]).mismatches).toHaveLength(1);
    expect(differential(api.ServiceSchema, noDefault, [{ kind: "Service" }]).mismatches).toHaveLength(1);
    const table = api.TableSchema;
    const tparse = compileParser(table) as CompiledParse;
    const copying: CompiledParse = (v) => {
      const out = tparse(v);
      return out === FAIL ? out : structuredClone(out);
    };
    const rows = { kind: "Table", apiVersion: "meta.k8s.io/v1", metadata: {}, columnDefinitions: [], rows: [{ cells: [{ a: 1 }] }] };
    expect(differential(table, tparse, [rows]).mismatches).toEqual([]);
    expect(differential(table, copying, [rows]).mismatches[0]).toMatch(/reference differs/);
  });

  it("applies defaults as zod does: a fresh clone per parse, the inner type not run", () => {
    const s = z.object({ a: z.array(z.string()).default([]), b: z.string().default("x"), c: z.number().optional() });
    const parse = compileParser(s) as CompiledParse;
    const one = parse({}) as { a: string[] };
    const two = parse({}) as { a: string[] };
    expect(one).toEqual({ a: [], b: "x" });
    expect(one.a).not.toBe(two.a);
    expect(JSON.stringify(parse({ c: undefined }))).toBe(JSON.stringify(s.parse({ c: undefined })));
    expect(Object.keys(parse({ c: undefined }) as object)).toEqual(["a", "b", "c"]);
  });

  it("runs a node it does not know through zod (a string format inside an object)", () => {
    const email = z.email();
    const s = z.object({ name: z.string(), mail: email, n: z.number().int().multipleOf(2) });
    const run = vi.spyOn(email._zod, "run");
    const parse = compileParser(s) as CompiledParse;
    expect(parse({ name: "a", mail: "a@b.example", n: 4 })).toEqual({ name: "a", mail: "a@b.example", n: 4 });
    expect(run).toHaveBeenCalledTimes(1);
    expect(parse({ name: "a", mail: "nope", n: 4 })).toBe(FAIL);
    expect(parse({ name: "a", mail: "a@b.example", n: 3 })).toBe(FAIL);
  });

  it("leaves a schema whose root it does not know to zod, with zod's errors", () => {
    const refined = z.object({ a: z.string() }).refine((o) => o.a !== "bad", "no bad");
    expect(compileParser(refined)).toBeNull();
    expect(compileParser(z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })))).toBeNull();
    const bad = safeParseCompiled(refined, { a: "bad" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues).toEqual(refined.safeParse({ a: "bad" }).error?.issues);
    expect(safeParseCompiled(refined, { a: "ok", x: 1 })).toEqual({ success: true, data: { a: "ok" } });
  });

  it("lets what zod's parse throws propagate, and leaves async schemas to zod's error", () => {
    const boom = z.union([
      z.string().transform((): string => {
        throw new Error("boom");
      }),
      z.string(),
    ]);
    expect(() => boom.safeParse("x")).toThrow("boom");
    expect(() => safeParseCompiled(boom, "x")).toThrow("boom");
    const slow = z.object({ a: z.string().transform(async (s) => Promise.resolve(s)) });
    const thrown = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        return String(e);
      }
      return "no error";
    };
    // Whatever zod throws for it (a TypeError in zod 4.1), the compiled path throws too.
    expect(thrown(() => safeParseCompiled(slow, { a: "x" }))).toBe(thrown(() => slow.safeParse({ a: "x" })));
    expect(thrown(() => slow.safeParse({ a: "x" }))).not.toBe("no error");
    // A later synchronous option that succeeds wins over an async one, in zod's union too.
    const either = z.union([z.string().transform(async (s) => Promise.resolve(s)), z.string()]);
    expect(safeParseCompiled(either, "x")).toEqual(either.safeParse("x"));
  });

  it("returns zod's error object on failure", () => {
    const got = safeParseCompiled(api.ServiceSchema, { spec: { ports: [{ port: 1.5 }] } });
    const want = api.ServiceSchema.safeParse({ spec: { ports: [{ port: 1.5 }] } });
    expect(got.success).toBe(false);
    expect(got.error?.issues).toEqual(want.error?.issues);
    expect(got.error?.message).toBe(want.error?.message);
  });

  it("follows recursive schemas (lazy and getters)", () => {
    interface Tree {
      name: string;
      kids?: Tree[];
    }
    const Lazy: z.ZodType<Tree> = z.lazy(() => z.object({ name: z.string(), kids: z.array(Lazy).optional() }));
    const Getter = z.object({
      name: z.string(),
      get kids() {
        return z.array(Getter).optional();
      },
    });
    const tree = { kids: [{ name: "b", kids: [{ name: "c", x: 1 }] }], name: "a" };
    for (const s of [Lazy, Getter] as z.ZodType[]) {
      const res = differential(s, compileParser(s) as CompiledParse, [tree, { name: "a", kids: [{ kids: [] }] }]);
      expect(res).toEqual({ ok: 1, failed: 1, mismatches: [] });
    }
  });

  // Runs last (vitest keeps a file's order): the whole file compared tens of thousands of cases.
  it("compared thousands of accepted and rejected values", () => {
    expect(compared.ok).toBeGreaterThan(20000);
    expect(compared.failed).toBeGreaterThan(20000);
  });
});
