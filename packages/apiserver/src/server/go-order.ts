/**
 * Field order as kube-apiserver writes JSON: encoding/json emits a struct's fields in declaration
 * order and a map's keys sorted. The zod schemas declare each type's fields in its Go struct's
 * order, so the schema is the order: known fields in shape order, unknown ones (kept content)
 * after them, records (Go maps) by sorted key, and the object's TypeMeta as Go's `kind` then
 * `apiVersion`.
 */
import { defOf, isObject, unwrap, type Schema } from "./schema-def.ts";

/** What ordering needs of one schema node, worked out once per node. */
type Plan =
  | { kind: "struct"; keys: readonly string[]; shape: Record<string, Schema> }
  | { kind: "slice"; element: Schema }
  | { kind: "map"; value: Schema }
  | { kind: "leaf" };

const plans = new WeakMap<object, Plan>();

function planOf(schema: Schema): Plan {
  const known = plans.get(schema as object);
  if (known) return known;
  const d = defOf(unwrap(schema));
  let p: Plan = { kind: "leaf" };
  if (d.type === "object" && d.shape) p = { kind: "struct", keys: Object.keys(d.shape), shape: d.shape };
  else if (d.type === "array" && d.element) p = { kind: "slice", element: d.element };
  // A record of opaque values (FieldsV1, RawExtension content) is written as it was sent.
  else if (d.type === "record" && d.valueType && !["unknown", "any"].includes(defOf(unwrap(d.valueType)).type))
    p = { kind: "map", value: d.valueType };
  plans.set(schema as object, p);
  return p;
}

function ordered(schema: Schema, v: unknown): unknown {
  const p = planOf(schema);
  if (p.kind === "slice") return Array.isArray(v) ? v.map((e: unknown) => ordered(p.element, e)) : v;
  if (!isObject(v)) return v;
  if (p.kind === "map") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = ordered(p.value, v[k]);
    return out;
  }
  if (p.kind === "leaf") return v;
  return struct(p.keys, p.shape, v);
}

function struct(keys: readonly string[], shape: Record<string, Schema>, v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (Object.hasOwn(v, k)) out[k] = ordered(shape[k], v[k]);
  for (const k of Object.keys(v)) if (!Object.hasOwn(out, k)) out[k] = v[k];
  return out;
}

/** TypeMeta's Go order (`Kind`, then `APIVersion`), ahead of the rest. */
const typeMeta = ["kind", "apiVersion"];

/**
 * `obj` with its fields in the order kube-apiserver's JSON has them, by `schema` (the kind's zod
 * schema); without a schema only `kind` and `apiVersion` move to the front.
 */
export function goFieldOrder<T extends object>(schema: unknown, obj: T): T {
  const v = obj as Record<string, unknown>;
  const p = schema === undefined ? undefined : planOf(schema);
  const rest = p?.kind === "struct" ? struct(p.keys, p.shape, v) : v;
  const out: Record<string, unknown> = {};
  for (const k of typeMeta) if (Object.hasOwn(rest, k)) out[k] = rest[k];
  for (const k of Object.keys(rest)) if (!Object.hasOwn(out, k)) out[k] = rest[k];
  return out as T;
}
