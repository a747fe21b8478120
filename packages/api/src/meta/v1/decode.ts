/**
 * Decoding request bodies the way kube-apiserver does: JSON `null` means
 * "zero value" (the field is treated as absent), unknown fields are dropped,
 * and with `fieldValidation=Strict` they are reported instead.
 *
 * The schemas are plain `z.object`s, which strip unknown keys; places where
 * Kubernetes keeps arbitrary content use `z.unknown()`/records, and
 * `unknownFields` does not descend into those.
 */
import type { z } from "zod";
import { safeParseCompiled } from "./compile-parser.ts";

type AnySchema = z.ZodType;

interface Def {
  type: string;
  shape?: Record<string, AnySchema>;
  catchall?: AnySchema;
  innerType?: AnySchema;
  element?: AnySchema;
  valueType?: AnySchema;
  options?: AnySchema[];
  getter?: () => AnySchema;
  in?: AnySchema;
  left?: AnySchema;
  right?: AnySchema;
}

function defOf(schema: AnySchema): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

const wrappers = new Set(["optional", "nullable", "default", "prefault", "catch", "readonly", "nonoptional"]);
const unwrapped = new WeakMap<AnySchema, AnySchema>();

/**
 * Peels wrappers that do not change the JSON shape (optional, nullable, default, prefault, catch,
 * readonly, nonoptional, lazy, pipe's input); memoised per schema. Also the apiserver's Go-type walk's.
 */
export function unwrapSchema(schema: AnySchema): AnySchema {
  const known = unwrapped.get(schema);
  if (known) return known;
  let s = schema;
  for (;;) {
    const d = defOf(s);
    if (d.innerType && wrappers.has(d.type)) s = d.innerType;
    else if (d.type === "lazy" && d.getter) s = d.getter();
    else if (d.type === "pipe" && d.in) s = d.in;
    else break;
  }
  unwrapped.set(schema, s);
  return s;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * What the walk needs of a schema node, made once per node: null for nodes it never descends
 * into (strings, numbers, opaque content...), so a body's leaves cost no call and no path segment.
 * Children are looked up lazily (a recursive schema stays finite here).
 */
type Node =
  | { kind: "object"; shape: Record<string, AnySchema>; open: boolean; fields: Map<string, Node | null> }
  | { kind: "array"; element: AnySchema }
  | { kind: "record"; valueType: AnySchema }
  | { kind: "union"; options: AnySchema[] }
  | { kind: "intersection"; left: AnySchema; right: AnySchema };

const nodes = new WeakMap<AnySchema, Node | null>();

function nodeOf(schema: AnySchema): Node | null {
  const known = nodes.get(schema);
  if (known !== undefined) return known;
  const d = defOf(unwrapSchema(schema));
  let n: Node | null = null;
  if (d.type === "object" && d.shape)
    n = { kind: "object", shape: d.shape, open: d.catchall !== undefined && defOf(d.catchall).type !== "never", fields: new Map() };
  else if (d.type === "array" && d.element) n = { kind: "array", element: d.element };
  else if (d.type === "record" && d.valueType) n = { kind: "record", valueType: d.valueType };
  else if (d.type === "union" && d.options) n = { kind: "union", options: d.options };
  else if (d.type === "intersection" && d.left && d.right) n = { kind: "intersection", left: d.left, right: d.right };
  nodes.set(schema, n);
  return n;
}

/** The node of field `k` of `n`: undefined when the shape has no such own key (an unknown field), null for a leaf. */
function fieldNode(n: Extract<Node, { kind: "object" }>, k: string): Node | null | undefined {
  let f = n.fields.get(k);
  if (f === undefined && !n.fields.has(k)) {
    // Own keys only: `constructor` or `__proto__` in a body must not find Object.prototype's.
    const child = Object.hasOwn(n.shape, k) ? n.shape[k] : undefined;
    if (child === undefined) return undefined;
    f = nodeOf(child);
    // Only the shape's keys are kept: a body's other keys must not grow the map.
    n.fields.set(k, f);
  }
  return f;
}

/** `path` holds the segments (`.spec`, `[0]`) to the value; they are joined only for an unknown field. */
function walk(n: Node, value: unknown, path: string[], out: string[]): void {
  switch (n.kind) {
    case "object":
      if (!isPlainObject(value)) return;
      for (const k of Object.keys(value)) {
        const f = fieldNode(n, k);
        if (f === undefined) {
          if (!n.open) out.push(`${path.join("")}.${k}`);
        } else if (f !== null) {
          path.push(`.${k}`);
          walk(f, value[k], path, out);
          path.pop();
        }
      }
      return;
    case "array": {
      const element = nodeOf(n.element);
      if (element === null || !Array.isArray(value)) return;
      for (let i = 0; i < value.length; i++) {
        path.push(`[${i}]`);
        walk(element, value[i], path, out);
        path.pop();
      }
      return;
    }
    case "record": {
      const element = nodeOf(n.valueType);
      if (element === null || !isPlainObject(value)) return;
      for (const k of Object.keys(value)) {
        path.push(`[${k}]`);
        walk(element, value[k], path, out);
        path.pop();
      }
      return;
    }
    case "union": {
      // The value matches one branch; report what that branch does not know (fewest unknowns).
      let best: string[] | null = null;
      for (const opt of n.options) {
        const acc: string[] = [];
        const o = nodeOf(opt);
        if (o !== null) walk(o, value, path, acc);
        if (best === null || acc.length < best.length) best = acc;
      }
      out.push(...(best ?? []));
      return;
    }
    case "intersection": {
      const l: string[] = [];
      const r: string[] = [];
      const left = nodeOf(n.left);
      const right = nodeOf(n.right);
      if (left !== null) walk(left, value, path, l);
      if (right !== null) walk(right, value, path, r);
      out.push(...l.filter((p) => r.includes(p)));
      return;
    }
  }
}

/**
 * The JSON paths (`.spec.foo`, `.spec.ports[0].bar`) of fields in `obj` that
 * `schema` does not declare, in document order. `null` values count as present.
 */
export function unknownFields(schema: AnySchema, obj: unknown): string[] {
  const out: string[] = [];
  const n = nodeOf(schema);
  if (n !== null) walk(n, obj, [], out);
  return out;
}

/** Removes `null`-valued object keys, recursively (Go's json decodes null as the zero value). */
export function dropNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => dropNulls(v)) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
  return out as T;
}

/**
 * True when dropNulls(value) is not simply an equal copy: a null member somewhere, a `__proto__`
 * key (the copy's assignment makes it the prototype instead of a member), or an object that is not
 * plain JSON data (the copy makes it one).
 */
function changedByDropNulls(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return true;
    for (const v of value) if (changedByDropNulls(v)) return true;
    return false;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return true;
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    if (v === null || k === "__proto__" || changedByDropNulls(v)) return true;
  }
  return false;
}

export interface DecodeObjectOptions {
  /**
   * The caller gives `body` away: nothing else reads or keeps it (a request body it just parsed).
   * When dropping nulls would change nothing, it is then decoded as it is instead of a copy, and
   * the result may share opaque (`z.unknown()`) content with it.
   */
  owned?: boolean;
}

export type DecodeResult<T> = { ok: true; value: T; unknownFields: string[] } | { ok: false; error: z.ZodError; unknownFields: string[] };

/**
 * Decodes a parsed JSON body: nulls dropped, unknown fields listed (and
 * stripped from `value`), then validated against `schema` (through its compiled parser,
 * `safeParseCompiled`: zod's result, faster). With `strict`,
 * a body with unknown fields is still decoded; the caller rejects it
 * (kube-apiserver: 400 `strict decoding error: unknown field "spec.foo"`).
 */
export function decodeObject<S extends AnySchema>(schema: S, body: unknown, opts: DecodeObjectOptions = {}): DecodeResult<z.infer<S>> {
  const cleaned = opts.owned === true && !changedByDropNulls(body) ? body : dropNulls(body);
  const unknown = unknownFields(schema, cleaned);
  // The compiled parser gives safeParse's exact result, and falls back to safeParse for errors.
  const parsed = safeParseCompiled(schema, cleaned);
  if (!parsed.success) return { ok: false, error: parsed.error, unknownFields: unknown };
  return { ok: true, value: parsed.data, unknownFields: unknown };
}

/** Upstream's wording for one unknown field: `unknown field "spec.foo"` (no leading dot). */
export function unknownFieldMessage(path: string): string {
  return `unknown field ${JSON.stringify(path.replace(/^\./, ""))}`;
}
