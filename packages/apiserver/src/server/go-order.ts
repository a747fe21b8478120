/**
 * Objects as kube-apiserver writes JSON: encoding/json emits a struct's fields in declaration
 * order, leaves out an `omitempty` field holding its zero value ("", 0, false, an empty slice or
 * map, a nil pointer), writes a field without `omitempty` even when unset (its zero value:
 * `"port":0`, `"endpoints":null`, metav1.Time's `null`), and a map's keys sorted. The Go structs
 * come from go-structs/ (k8s.io/api's types.go tags); kinds without them follow their zod schema's
 * shape (declared in Go order) and keep what they hold. Unknown fields (kept content) go after the
 * known ones, and an object's TypeMeta is Go's `kind` then `apiVersion`.
 */
import { parseGoField, struct as goStruct, type GoField } from "./go-structs/index.ts";
import { defOf, isObject, unwrap, type Schema } from "./schema-def.ts";

/** One field of a struct plan: its JSON name, zod schema and (for Go-typed structs) its Go facts. */
interface FieldPlan {
  name: string;
  schema: Schema;
  go: GoField | undefined;
  /** The plan of the field's value, looked up on first use (a plan's children are built lazily: schemas recurse). */
  value?: Plan;
}

/** What encoding needs of one (schema node, Go struct) pair, worked out once per pair. */
type Plan =
  | { kind: "struct"; fields: readonly FieldPlan[]; names: ReadonlySet<string> }
  | { kind: "slice"; element: Plan }
  | { kind: "map"; value: Plan }
  | { kind: "leaf" };

const leaf: Plan = { kind: "leaf" };
/** The plans of fields that only Go's struct has, keyed apart from every schema's. */
const noSchema = {};
const plans = new WeakMap<object, Map<string, Plan>>();

/** The plan for values of `schema`, typed by the Go struct `go` (through slices and maps) if known. */
function planOf(schema: Schema, go: string | undefined): Plan {
  if (schema === undefined && go === undefined) return leaf;
  const key: object = schema === undefined ? noSchema : (schema as object);
  let bySchema = plans.get(key);
  if (bySchema === undefined) plans.set(key, (bySchema = new Map()));
  const known = bySchema.get(go ?? "");
  if (known) return known;
  const p = build(schema, go);
  bySchema.set(go ?? "", p);
  return p;
}

function build(schema: Schema, go: string | undefined): Plan {
  // A Go field the schema lacks (written only as its zero value): its Go struct alone shapes it.
  if (schema === undefined) return go === undefined ? leaf : structPlan({}, goStruct(go));
  const d = defOf(unwrap(schema));
  if (d.type === "object" && d.shape) return structPlan(d.shape, go === undefined ? undefined : goStruct(go));
  if (d.type === "array" && d.element) return { kind: "slice", element: planOf(d.element, go) };
  // A record of opaque values (FieldsV1, RawExtension content) is written as it was sent.
  if (d.type === "record" && d.valueType && !["unknown", "any"].includes(defOf(unwrap(d.valueType)).type))
    return { kind: "map", value: planOf(d.valueType, go) };
  return leaf;
}

/** Go's fields in declaration order, then any the schema has and the Go table lacks. */
function structPlan(shape: Record<string, Schema>, go: Readonly<Record<string, string>> | undefined): Plan {
  const fields: FieldPlan[] = Object.entries(go ?? {}).map(([name, spec]) => ({ name, schema: shape[name], go: parseGoField(spec) }));
  for (const name of Object.keys(shape)) if (go?.[name] === undefined) fields.push({ name, schema: shape[name], go: undefined });
  return { kind: "struct", fields, names: new Set(fields.map((f) => f.name)) };
}

function encode(p: Plan, v: unknown): unknown {
  if (p.kind === "slice") return Array.isArray(v) ? v.map((e: unknown) => encode(p.element, e)) : v;
  if (!isObject(v)) return p.kind === "struct" && v === null ? encodeStruct(p, {}) : v;
  if (p.kind === "map") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = encode(p.value, v[k]);
    return out;
  }
  if (p.kind === "leaf") return v;
  return encodeStruct(p, v);
}

/** Whether encoding/json's omitempty drops `v` (isEmptyValue); structs are never empty. */
function isEmpty(go: GoField, v: unknown): boolean {
  switch (go.kind) {
    case "string":
    case "int":
    case "bool":
      return v === "" || v === 0 || v === false || v === null;
    case "slice":
    case "map":
      return (
        v === null || (Array.isArray(v) ? v.length === 0 : typeof v === "string" ? v === "" : isObject(v) && Object.keys(v).length === 0)
      );
    case "pointer":
      return v === null;
    default:
      return false;
  }
}

/** The JSON encoding/json writes for an unset field of this kind. */
function zero(f: FieldPlan & { go: GoField }): unknown {
  switch (f.go.kind) {
    case "string":
      return "";
    case "int":
    case "intOrString":
      return 0;
    case "bool":
      return false;
    case "quantity":
      return "0";
    case "struct":
      return encode(valuePlan(f), {});
    default:
      return null;
  }
}

/** Struct kinds: omitempty never drops them, so an unset one is written as its zero value. */
const neverEmpty = new Set(["struct", "time", "intOrString", "quantity"]);

/** `planOf` for the field's value, kept on the field: two map look-ups per field and object saved on every encode. */
function valuePlan(f: FieldPlan): Plan {
  return (f.value ??= planOf(f.schema, f.go?.struct));
}

function encodeStruct(p: Plan & { kind: "struct" }, v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of p.fields) {
    const has = Object.hasOwn(v, f.name) && v[f.name] !== undefined;
    if (f.go === undefined) {
      if (has) out[f.name] = encode(valuePlan(f), v[f.name]);
    } else if (has) {
      if (!(f.go.omitempty && isEmpty(f.go, v[f.name]))) out[f.name] = encode(valuePlan(f), v[f.name]);
    } else if (!f.go.omitempty || neverEmpty.has(f.go.kind)) out[f.name] = zero(f as FieldPlan & { go: GoField });
  }
  for (const k of Object.keys(v)) if (!p.names.has(k)) out[k] = v[k];
  return out;
}

/** TypeMeta's Go order (`Kind`, then `APIVersion`), ahead of the rest. */
const typeMeta = ["kind", "apiVersion"];

/**
 * `obj` as kube-apiserver's JSON has it, by `schema` (the kind's zod schema) and `go` (its Go
 * struct, `core/v1.Service`, when go-structs/ has it); without a schema only `kind` and
 * `apiVersion` move to the front.
 */
export function goFieldOrder<T extends object>(schema: unknown, obj: T, go?: string): T {
  const v = obj as Record<string, unknown>;
  const p = planOf(schema, go);
  const rest = p.kind === "struct" ? encodeStruct(p, v) : v;
  const out: Record<string, unknown> = {};
  for (const k of typeMeta) if (Object.hasOwn(rest, k)) out[k] = rest[k];
  for (const k of Object.keys(rest)) if (!Object.hasOwn(out, k)) out[k] = rest[k];
  return out as T;
}
