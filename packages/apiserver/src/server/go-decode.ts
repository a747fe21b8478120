/**
 * The type errors kube-apiserver's JSON decoder (sigs.k8s.io/json, a fork of encoding/json) finds
 * while decoding a body into the Go struct of a served kind, in its words:
 * `json: cannot unmarshal number 2147483648 into Go struct field ServicePort.spec.ports.port of type int32`.
 * The zod schemas accept any JSON number for an integer field, so without this an int32 overflow
 * reached validation and came back 422 instead of upstream's 400.
 *
 * As upstream: errors are found in document order and the first one is reported; nulls are zero
 * values; an error from a type's own UnmarshalJSON (intstr.IntOrString, metav1.Time) stops decoding,
 * carries no struct context, and wins over an earlier one.
 */
import { defOf, isObject, unwrap, type Def, type Schema } from "./schema-def.ts";
import { base64DecodeError } from "./go-base64.ts";
import { timeFields, type GoTypes } from "./go-types.ts";

/** encoding/json's name for the JSON value kind in UnmarshalTypeError.Value. */
function kindOf(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "object") return "object";
  // An int64 kept exact (util/json): a JSON number.
  if (typeof v === "bigint") return "number";
  return typeof v;
}

const int32Range = (n: number): boolean => n >= -2147483648 && n <= 2147483647;

/** Where the decoder is: the struct whose field it decodes and the JSON names from the root. */
interface Context {
  struct: string;
  /** Shared by the walk: valid only while the value is being looked at (messages are made then). */
  stack: readonly string[];
  /** The value's path with list indices, for finding its literal in the body text. */
  at: readonly (string | number)[];
}

/**
 * What the walk needs of one schema node at one JSON path, worked out on first use and kept (per
 * GoTypes and root schema): the unwrapped def, the Go type names and the children's plans. The
 * schemas are finite trees, so the plans are too; without them every request unwrapped every
 * node, built every field's path string and looked its types up again.
 */
interface Plan {
  readonly s: Schema;
  readonly d: Def;
  readonly path: string;
  /** A metav1.Time field (a string schema named like one). */
  readonly time: boolean;
  goType?: string;
  struct?: string;
  int?: "int32" | "int64";
  stringRecord?: boolean;
  /** A `[]byte` (or `map[string][]byte`): a base64 string in JSON. */
  bytes?: boolean;
  element?: Plan;
  fields?: Map<string, Plan>;
}

function newPlan(s: Schema, path: string, field: string): Plan {
  const d = defOf(unwrap(s));
  return { s, d, path, time: timeFields.has(field) && d.type === "string" };
}

/** The plan of field `k` (a key of the object's shape) of object plan `p`. */
function fieldPlan(p: Plan, k: string): Plan {
  const fields = (p.fields ??= new Map());
  let f = fields.get(k);
  if (f === undefined) {
    f = newPlan(p.d.shape![k], p.path === "" ? k : `${p.path}.${k}`, k);
    fields.set(k, f);
  }
  return f;
}

const rootPlans = new WeakMap<GoTypes, WeakMap<object, Plan>>();

function rootPlan(types: GoTypes, schema: Schema): Plan {
  let bySchema = rootPlans.get(types);
  if (bySchema === undefined) rootPlans.set(types, (bySchema = new WeakMap()));
  let p = bySchema.get(schema as object);
  if (p === undefined) bySchema.set(schema as object, (p = newPlan(schema, "", "")));
  return p;
}

/** encoding/json's name for the Go type of `s` at `path`. */
function goTypeOf(types: GoTypes, s: Schema, path: string): string {
  const d = defOf(unwrap(s));
  switch (d.type) {
    case "object":
      return types.struct(path) ?? "struct";
    case "array":
      return `[]${goTypeOf(types, d.element, `${path}[]`)}`;
    case "record":
      return "map[string]string";
    case "number":
      return types.int(path);
    case "boolean":
      return "bool";
    case "union":
      return "intstr.IntOrString";
    default:
      return "string";
  }
}

/** A returned (not saved) error: decoding stops there. */
class Stop extends Error {}

/**
 * The first decode error of `value` against `schema`, or undefined. `literal` gives a number's
 * text as the body spelled it (Go quotes the literal: `number 1e30`), when the caller has the text.
 */
export function goDecodeError(
  schema: Schema,
  value: unknown,
  types: GoTypes,
  literal?: (at: readonly (string | number)[]) => string | undefined,
): string | undefined {
  let saved: string | undefined;
  // Each look-up scans the body text: a bounded number of them, so a body of many huge numbers stays linear.
  let lookups = 16;
  const numberText = (n: number, at: readonly (string | number)[]): string =>
    (lookups-- > 0 ? literal?.(at) : undefined) ?? (Number.isInteger(n) && Math.abs(n) >= 2 ** 53 ? BigInt(n).toString() : String(n));
  // strconv.ParseInt on the literal: an integer that JSON.parse rounded (2^63 - 1 becomes 2^63) is judged by its text.
  const fitsInt = (n: number, goType: "int32" | "int64", at: readonly (string | number)[]): { ok: boolean; text?: string } => {
    if (Number.isSafeInteger(n)) return { ok: goType === "int64" || int32Range(n) };
    const text = numberText(n, at);
    if (!/^-?\d+$/.test(text)) return { ok: false, text };
    const b = BigInt(text);
    const ok = goType === "int64" ? b >= -(2n ** 63n) && b < 2n ** 63n : b >= -(2n ** 31n) && b < 2n ** 31n;
    return { ok, text };
  };
  // encoding/json saves a bad base64 value's CorruptInputError as it is, and goes on.
  const saveBase64 = (v: string): void => {
    const err = base64DecodeError(v);
    if (err !== undefined) saved ??= err;
  };
  const save = (valueKind: string, goType: string, ctx: Context): void => {
    saved ??=
      ctx.stack.length > 0
        ? `json: cannot unmarshal ${valueKind} into Go struct field ${ctx.struct}.${ctx.stack.join(".")} of type ${goType}`
        : `json: cannot unmarshal ${valueKind} into Go value of type ${goType}`;
  };

  const walk = (p: Plan, v: unknown, ctx: Context): void => {
    if (v === null) return; // a zero value, never an error
    const d = p.d;
    if (p.time) {
      // metav1.Time.UnmarshalJSON: json.Unmarshal into a string, its error returned as is.
      if (typeof v !== "string") throw new Stop(`json: cannot unmarshal ${kindOf(v)} into Go value of type string`);
      return;
    }
    switch (d.type) {
      case "object": {
        const goType = (p.goType ??= goTypeOf(types, p.s, p.path));
        if (!isObject(v)) return save(kindOf(v), goType, ctx);
        const shape = d.shape;
        if (shape === undefined) return;
        // One stack and one path shared by the whole walk (pushed and popped), one context per object.
        const inner: Context = { struct: (p.struct ??= goType.slice(goType.indexOf(".") + 1)), stack, at };
        for (const k of Object.keys(v)) {
          // Own keys only: a body's `constructor` or `__proto__` must not find Object.prototype's.
          if (!Object.hasOwn(shape, k)) continue; // unknown fields are fieldValidation's business
          stack.push(k);
          at.push(k);
          walk(fieldPlan(p, k), v[k], inner);
          stack.pop();
          at.pop();
        }
        return;
      }
      case "array": {
        if (!Array.isArray(v)) return save(kindOf(v), (p.goType ??= goTypeOf(types, p.s, p.path)), ctx);
        const element = (p.element ??= newPlan(d.element, `${p.path}[]`, ""));
        for (let i = 0; i < v.length; i++) {
          if (!(i in v)) continue; // a hole (not from JSON), skipped as forEach skips it
          at.push(i);
          walk(element, v[i], ctx);
          at.pop();
        }
        return;
      }
      case "record": {
        // Only map[string]string fields; other records (fieldsV1) take any JSON.
        if (!(p.stringRecord ??= defOf(unwrap(d.valueType)).type === "string")) return;
        if (!isObject(v)) return save(kindOf(v), "map[string]string", ctx);
        const bytes = (p.bytes ??= types.bytes(p.path));
        for (const x of Object.values(v)) {
          if (x !== null && typeof x !== "string") save(kindOf(x), "string", ctx);
          else if (bytes && typeof x === "string") saveBase64(x);
        }
        return;
      }
      case "number": {
        const goType = (p.int ??= types.int(p.path));
        // A patch's int64 kept exact: judged and quoted by its digits, as strconv.ParseInt would.
        if (typeof v === "bigint") return goType === "int64" ? undefined : save(`number ${v}`, goType, ctx);
        if (typeof v !== "number") return save(kindOf(v), goType, ctx);
        const fit = fitsInt(v, goType, ctx.at);
        if (!fit.ok) save(`number ${fit.text ?? numberText(v, ctx.at)}`, goType, ctx);
        return;
      }
      case "union": {
        // intstr.IntOrString.UnmarshalJSON: a string, else json.Unmarshal into its int32.
        if (typeof v === "string") return;
        if (typeof v === "bigint") throw new Stop(`json: cannot unmarshal number ${v} into Go value of type int32`);
        if (typeof v !== "number") throw new Stop(`json: cannot unmarshal ${kindOf(v)} into Go value of type int32`);
        const fit = fitsInt(v, "int32", ctx.at);
        if (!fit.ok) throw new Stop(`json: cannot unmarshal number ${fit.text ?? numberText(v, ctx.at)} into Go value of type int32`);
        return;
      }
      case "boolean":
        if (typeof v !== "boolean") save(kindOf(v), "bool", ctx);
        return;
      case "string":
      case "enum":
      case "literal":
        if (typeof v !== "string") save(kindOf(v), "string", ctx);
        else if ((p.bytes ??= types.bytes(p.path))) saveBase64(v);
        return;
      default:
        return;
    }
  };

  const stack: string[] = [];
  const at: (string | number)[] = [];
  try {
    walk(rootPlan(types, schema), value, { struct: "", stack, at });
  } catch (e) {
    if (e instanceof Stop) return e.message;
    throw e;
  }
  return saved;
}

/**
 * runtime.DefaultUnstructuredConverter's integer conversion (apimachinery runtime/converter.go
 * fromUnstructured: `dv.Set(sv.Convert(dt))`): the result of a strategic merge patch reaches the
 * Go struct through an unstructured map, where an int64 into an int32 field wraps silently (2^31
 * becomes -2^31) and validation then judges the wrapped value. Rewrites `value` in place.
 */
export function wrapUnstructuredInts(schema: Schema, value: unknown, types: GoTypes): void {
  const walk = (s: Schema, v: unknown, path: string): void => {
    const d = defOf(unwrap(s));
    if (d.type === "object" && isObject(v)) {
      for (const k of Object.keys(v)) {
        if (d.shape === undefined || !Object.hasOwn(d.shape, k)) continue;
        const x = v[k];
        const sub = path === "" ? k : `${path}.${k}`;
        const f = d.shape[k];
        if (
          (typeof x === "bigint" || (typeof x === "number" && Number.isSafeInteger(x) && !int32Range(x))) &&
          defOf(unwrap(f)).type === "number" &&
          types.int(sub) === "int32"
        ) {
          v[k] = Number(BigInt.asIntN(32, BigInt(x)));
        } else walk(f, x, sub);
      }
    } else if (d.type === "array" && Array.isArray(v)) {
      for (const x of v) walk(d.element, x, `${path}[]`);
    }
  };
  walk(schema, value, "");
}
