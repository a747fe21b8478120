/**
 * The leaves of the compiled parser (compile-parser.ts) and what it reads of zod v4's internals:
 * each leaf mirrors one parse of zod/v4/core/schemas.js ($ZodString, $ZodNumber, $ZodBoolean,
 * $ZodUnknown, $ZodAny, $ZodEnum, $ZodLiteral).
 */
import type { z } from "zod";
import type { NumberCheck } from "./compile-checks.ts";
import { FAIL, type CompiledParse, type Field } from "./compiled-object.ts";

export interface Payload {
  value: unknown;
  issues: unknown[];
}

/** The parts of a zod v4 `_zod` internals record the compiler reads. */
export interface ZodInternals {
  def: Record<string, unknown> & { type: string; checks?: unknown[] };
  traits: Set<string>;
  values?: Set<unknown>;
  optin?: string;
  innerType?: z.ZodType;
  run(payload: Payload, ctx: { async: boolean }): Payload | Promise<Payload>;
}

/** A schema's `_zod` internals (zod v4 keeps its def, traits and run there). */
export function zodOf(schema: unknown): ZodInternals {
  return (schema as { _zod: ZodInternals })._zod;
}

/** True when `schema` has exactly zod's parse for `trait` (no subclass with its own parse). */
export function is(zod: ZodInternals, trait: string): boolean {
  return (
    zod.traits.has(trait) &&
    !zod.traits.has("$ZodStringFormat") &&
    !zod.traits.has("$ZodDiscriminatedUnion") &&
    !zod.traits.has("$ZodCodec") &&
    zod.def["coerce"] !== true
  );
}

export const stringParse: CompiledParse = (v) => (typeof v === "string" ? v : FAIL);
export const booleanParse: CompiledParse = (v) => (typeof v === "boolean" ? v : FAIL);

/** Primitives: $ZodString, $ZodNumber (with its checks), $ZodBoolean, $ZodUnknown/$ZodAny, $ZodEnum, $ZodLiteral. */
export function compileLeaf(zod: ZodInternals, checks: NumberCheck | undefined): CompiledParse | null | undefined {
  switch (zod.def.type) {
    case "string":
      if (!is(zod, "$ZodString") || checks !== undefined) return null;
      return stringParse;
    case "number":
      if (!is(zod, "$ZodNumber")) return null;
      if (checks === undefined) return (v) => (typeof v === "number" && Number.isFinite(v) ? v : FAIL);
      return (v) => (typeof v === "number" && Number.isFinite(v) && checks(v) ? v : FAIL);
    case "boolean":
      if (!is(zod, "$ZodBoolean") || checks !== undefined) return null;
      return booleanParse;
    case "unknown":
    case "any":
      if (!is(zod, zod.def.type === "any" ? "$ZodAny" : "$ZodUnknown") || checks !== undefined) return null;
      return (v) => v;
    case "enum":
    case "literal": {
      const values = zod.values;
      if (!is(zod, zod.def.type === "enum" ? "$ZodEnum" : "$ZodLiteral") || checks !== undefined || values === undefined) return null;
      return (v) => (values.has(v) ? v : FAIL);
    }
    default:
      return undefined;
  }
}

export function leafOf(parse: CompiledParse): Field["leaf"] {
  return parse === stringParse ? "string" : parse === booleanParse ? "boolean" : undefined;
}
