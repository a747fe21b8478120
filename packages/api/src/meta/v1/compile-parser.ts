/**
 * A compiled fast path for zod v4's `safeParse`: the schema's def is walked once into small
 * closures that return exactly what zod's `_zod.run` would produce for a value zod accepts, and
 * the sentinel FAIL for anything else (the caller then runs `safeParse`, so issues, messages and
 * paths stay zod's). Each closure mirrors one parse function of zod/v4/core/schemas.js
 * ($ZodObject, $ZodArray, $ZodRecord, $ZodUnion, $ZodOptional, $ZodDefault, ...); a node it does
 * not know (string formats, refinements, intersections, transforms...) is run by zod itself with
 * the context `safeParse` gives it, so the result is zod's there too.
 */
import type { z } from "zod";
import { util } from "zod/v4/core";
import { checkOf } from "./compile-checks.ts";
import { FAIL, objectParse, type CompiledParse, type Field } from "./compiled-object.ts";
import { compileLeaf, is, leafOf, zodOf, type ZodInternals } from "./compile-leaf.ts";

export { FAIL, type CompiledParse } from "./compiled-object.ts";

/** Object parses as generated code (false: loops), for the schema being compiled now. */
let codegen = true;

interface Node {
  parse: CompiledParse;
  /** False when the node is run by zod itself (see delegate). */
  compiled: boolean;
}

/** The compiled nodes, per codegen setting (the loop variant is there to test and measure it). */
const generatedNodes = new WeakMap<object, Node>();
const loopedNodes = new WeakMap<object, Node>();
let nodes = generatedNodes;

function withCodegen<T>(on: boolean, f: () => T): T {
  const was = [codegen, nodes] as const;
  [codegen, nodes] = [on, on ? generatedNodes : loopedNodes];
  try {
    return f();
  } finally {
    [codegen, nodes] = was;
  }
}
/** Parses of `$ZodOptional`s whose inner type does not take undefined (undefined in, undefined out), to their inner parse. */
const plainOptional = new WeakMap<CompiledParse, CompiledParse>();

/**
 * The node runs through zod: `_zod.run` with the `{ async: false }` context `safeParse` makes, as
 * the parent's parse would call it. What it throws propagates, as it would out of zod's parse
 * (zod would have run the same code on the same value first: a union does not try its next
 * option after a throw). A Promise (an async transform or refinement) is FAIL, so the caller's
 * `safeParse` throws zod's async error.
 */
function delegate(schema: z.ZodType): CompiledParse {
  const zod = zodOf(schema);
  return (value) => {
    const r = zod.run({ value, issues: [] }, { async: false });
    if (r instanceof Promise) {
      r.catch(() => undefined);
      return FAIL;
    }
    return r.issues.length > 0 ? FAIL : r.value;
  };
}

function nodeOf(schema: z.ZodType): Node {
  const known = nodes.get(schema);
  if (known !== undefined) return known;
  // Registered before its children are compiled: a schema that reaches itself (a getter in a
  // shape) gets this forwarding parse instead of compiling forever.
  let impl: CompiledParse = () => FAIL;
  const n: Node = { parse: (v) => impl(v), compiled: true };
  nodes.set(schema, n);
  const compiled = compileNode(schema);
  n.compiled = compiled !== null;
  impl = compiled ?? delegate(schema);
  n.parse = impl;
  return n;
}

/** The parse of `schema`'s child, by reference so a lazy (recursive) child is compiled on first use. */
function child(schema: unknown): CompiledParse {
  return nodeOf(schema as z.ZodType).parse;
}

/** Builds the parse of one node, or null to let zod run it. */
function compileNode(schema: z.ZodType): CompiledParse | null {
  const zod = zodOf(schema);
  const def = zod.def;
  const checks = checkOf(schema);
  if (checks === null) return null;
  const leaf = compileLeaf(zod, checks);
  if (leaf !== undefined) return leaf;
  // Checks on containers (refinements) are left to zod.
  if (checks !== undefined) return null;
  switch (def.type) {
    case "object":
      return is(zod, "$ZodObject") ? compileObject(def) : null;
    case "array": {
      if (!is(zod, "$ZodArray")) return null;
      const element = child(def["element"]);
      return (input) => {
        if (!Array.isArray(input)) return FAIL;
        const out: unknown[] = Array(input.length);
        for (let i = 0; i < input.length; i++) {
          const r = element(input[i]);
          if (r === FAIL) return FAIL;
          out[i] = r;
        }
        return out;
      };
    }
    case "record":
      return is(zod, "$ZodRecord") ? compileRecord(def) : null;
    case "union":
      return is(zod, "$ZodUnion") ? compileUnion(def["options"] as z.ZodType[]) : null;
    default:
      return compileWrapper(schema, zod);
  }
}

/** $ZodObject(JIT): see compiled-object.ts; the catchall's keys come in `for...in` order (inherited enumerable ones too). */
function compileObject(def: Record<string, unknown>): CompiledParse | null {
  const shape = def["shape"] as Record<string, z.ZodType>;
  const keys = Object.keys(shape);
  if (keys.some((k) => zodOf(shape[k])?.traits?.has("$ZodType") !== true)) return null;
  const fields = keys.map((key): Field => {
    const parse = child(shape[key]);
    const inner = plainOptional.get(parse);
    return { key, parse, inner, leaf: leafOf(inner ?? parse) };
  });
  const catchall = def["catchall"] as z.ZodType | undefined;
  if (catchall === undefined) return objectParse(fields, undefined, codegen);
  const keySet = new Set(keys);
  const strict = zodOf(catchall).def.type === "never";
  const parse = strict ? undefined : child(catchall);
  return objectParse(
    fields,
    (input, out) => {
      for (const key in input) {
        if (keySet.has(key)) continue;
        if (parse === undefined) return FAIL;
        const r = parse(input[key]);
        if (r === FAIL) return FAIL;
        if (r !== undefined) out[key] = r;
        else if (key in input) out[key] = undefined;
      }
      return out;
    },
    codegen,
  );
}

/** $ZodRecord without enumerable key values: own keys (symbols too) but `__proto__`, each key and value parsed. */
function compileRecord(def: Record<string, unknown>): CompiledParse | null {
  if (zodOf(def["keyType"]).values !== undefined) return null;
  const key = child(def["keyType"]);
  const value = child(def["valueType"]);
  return (input) => {
    if (!util.isPlainObject(input)) return FAIL;
    const out: Record<PropertyKey, unknown> = {};
    for (const k of Reflect.ownKeys(input)) {
      if (k === "__proto__") continue;
      const kr = key(k);
      if (kr === FAIL) return FAIL;
      const vr = value(input[k]);
      if (vr === FAIL) return FAIL;
      out[kr as PropertyKey] = vr;
    }
    return out;
  };
}

/** $ZodUnion: the first option without issues gives the result. */
function compileUnion(options: z.ZodType[]): CompiledParse {
  const parsers = options.map((o) => child(o));
  return (v) => {
    for (const p of parsers) {
      const r = p(v);
      if (r !== FAIL) return r;
    }
    return FAIL;
  };
}

/** $ZodOptional, $ZodNullable, $ZodDefault, $ZodPipe, $ZodLazy; null for the rest. */
function compileWrapper(schema: z.ZodType, zod: ZodInternals): CompiledParse | null {
  const def = zod.def;
  switch (def.type) {
    case "optional": {
      if (!is(zod, "$ZodOptional")) return null;
      const inner = child(def["innerType"]);
      // An inner type that takes undefined itself (a default) runs. When it fails, zod's
      // handleOptionalResult looks at the payload's value *after* that run, which the inner type may
      // have replaced (a prefault does): zod runs this node again to say what that gives.
      if (zodOf(def["innerType"]).optin === "optional") {
        const whole = delegate(schema);
        return (v) => {
          const r = inner(v);
          return r === FAIL ? whole(v) : r;
        };
      }
      const parse: CompiledParse = (v) => (v === undefined ? undefined : inner(v));
      plainOptional.set(parse, inner);
      return parse;
    }
    case "nullable": {
      if (!is(zod, "$ZodNullable")) return null;
      const inner = child(def["innerType"]);
      return (v) => (v === null ? null : inner(v));
    }
    case "default": {
      if (!is(zod, "$ZodDefault")) return null;
      const inner = child(def["innerType"]);
      // `defaultValue` is a getter: a fresh shallow clone (or the factory's result) per read, read when zod reads it.
      return (v) => {
        if (v === undefined) return def["defaultValue"];
        const r = inner(v);
        if (r === FAIL) return FAIL;
        return r === undefined ? def["defaultValue"] : r;
      };
    }
    case "pipe": {
      if (!is(zod, "$ZodPipe")) return null;
      const left = child(def["in"]);
      const right = child(def["out"]);
      return (v) => {
        const r = left(v);
        return r === FAIL ? FAIL : right(r);
      };
    }
    case "lazy": {
      if (!is(zod, "$ZodLazy")) return null;
      let inner: CompiledParse | undefined;
      const mode = codegen;
      return (v) => (inner ??= withCodegen(mode, () => child(zod.innerType)))(v);
    }
    default:
      return null;
  }
}

/**
 * The compiled parse of `schema` (memoised per schema), or null when zod must parse the whole
 * value (its root is a node the compiler does not know: `safeParse` directly is cheaper).
 * `codegen: false` builds object parses as loops instead of generated code (to test and measure them).
 */
export function compileParser(schema: z.ZodType, opts: { codegen?: boolean } = {}): CompiledParse | null {
  const on = opts.codegen ?? true;
  const n = (on ? generatedNodes : loopedNodes).get(schema) ?? withCodegen(on, () => nodeOf(schema));
  return n.compiled ? n.parse : null;
}

/**
 * `schema.safeParse(value)` through the compiled parser: the same `{ success, data }` for a value
 * zod accepts, and zod's own result (its error) for any other.
 */
export function safeParseCompiled<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  const parse = compileParser(schema);
  if (parse !== null) {
    const r = parse(value);
    if (r !== FAIL) return { success: true, data: r as z.output<S> };
  }
  return schema.safeParse(value);
}
