/**
 * The checks zod v4 keeps in `def.checks` that the compiled parser runs itself; they are the
 * number checks of zod/v4/core/checks.js ($ZodCheckNumberFormat for `.int()`, `.int32()`...,
 * $ZodCheckGreaterThan/LessThan for `.min()`/`.max()`/`.positive()`...). Any other check, or a
 * check with a `when` guard, leaves its node to zod.
 */
import type { z } from "zod";
import { util } from "zod/v4/core";

/** A check as a predicate on a finite number. */
export type NumberCheck = (v: number) => boolean;

interface CheckInternals {
  def: { check?: string; when?: unknown; format?: string; value?: unknown; inclusive?: boolean };
  traits?: Set<string>;
}

/** One check as a predicate on a finite number (what $ZodNumber's parse leaves), or null. */
function numberCheck(ch: CheckInternals): NumberCheck | null {
  const d = ch.def;
  if (d.when !== undefined) return null;
  switch (d.check) {
    case "number_format": {
      if (ch.traits?.has("$ZodCheckNumberFormat") !== true) return null;
      const format = d.format ?? "float64";
      const range = (util.NUMBER_FORMAT_RANGES as Record<string, [number, number] | undefined>)[format];
      if (range === undefined) return null;
      const [min, max] = range;
      // An integer format fails a non-integer or an unsafe integer before the range is looked at.
      if (format.includes("int")) return (v) => Number.isSafeInteger(v) && v >= min && v <= max;
      return (v) => v >= min && v <= max;
    }
    case "greater_than": {
      if (ch.traits?.has("$ZodCheckGreaterThan") !== true) return null;
      const bound = d.value as number;
      return d.inclusive === true ? (v) => v >= bound : (v) => v > bound;
    }
    case "less_than": {
      if (ch.traits?.has("$ZodCheckLessThan") !== true) return null;
      const bound = d.value as number;
      return d.inclusive === true ? (v) => v <= bound : (v) => v < bound;
    }
    default:
      return null;
  }
}

/**
 * The checks `$ZodType`'s run applies to `schema` after its parse, as one predicate: undefined
 * when there are none, null when one is not understood. A schema that is itself a check (`z.int()`)
 * runs first, as zod unshifts it.
 */
export function checkOf(schema: z.ZodType): NumberCheck | null | undefined {
  const zod = (schema as unknown as { _zod: { def: { type: string; checks?: unknown[] }; traits: Set<string> } })._zod;
  const list = [...((zod.def.checks ?? []) as { _zod: CheckInternals }[])];
  if (zod.traits.has("$ZodCheck")) list.unshift(schema as unknown as { _zod: CheckInternals });
  if (list.length === 0) return undefined;
  if (zod.def.type !== "number") return null;
  const preds: NumberCheck[] = [];
  for (const ch of list) {
    const p = numberCheck(ch._zod);
    if (p === null) return null;
    preds.push(p);
  }
  if (preds.length === 1) return preds[0];
  return (v) => preds.every((p) => p(v));
}
