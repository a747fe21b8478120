/**
 * Conversions between JSON values and the values the CEL interpreter works on, as
 * k8s.io/apiserver/pkg/cel/common/values.go UnstructuredToVal does for schemaless data: a JSON
 * number without a fraction is a CEL int (a bigint here), any other number a double.
 */
import { Optional } from "@marcbachmann/cel-js";
import { normalizeInt } from "../../util/json/json.ts";

/** A JSON value (an object decoded from a request, a param, an old object). */
export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

/** Where a JSON integer stops being an int64 (encoding/json and util/json decode it as a float64 then). */
const int64Limit = 2 ** 63;

/**
 * The CEL view of a JSON value: integral numbers and int64 bigints (util/json) become bigints;
 * objects and lists are copied. An integral double beyond 2^53 stands for the int64 its digits
 * write (1234567890123456800, not the double's exact 1234567890123456768), one beyond int64 for
 * the float64 Go decodes.
 */
export function toCEL(v: unknown): unknown {
  if (typeof v === "number") {
    if (!Number.isInteger(v) || Math.abs(v) >= int64Limit) return v;
    return Number.isSafeInteger(v) ? BigInt(v) : BigInt(String(v));
  }
  if (Array.isArray(v)) return v.map(toCEL);
  if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toCEL(x);
    return out;
  }
  return v;
}

/** An `optional` of a JSON value: optional.of(value), or optional.none() without one (optionalOldSelf). */
export function toCELOptional(v: { value: unknown } | undefined): Optional<unknown> {
  return v === undefined ? Optional.none() : Optional.of(toCEL(v.value));
}

/**
 * The JSON view of a CEL result (what a messageExpression or a mutation hands back): bigints
 * become numbers where a double holds them as written (int64s beyond that stay bigints, util/json), Maps become objects; values of the library's own types keep their string form.
 */
export function fromCEL(v: unknown): unknown {
  if (typeof v === "bigint") return normalizeInt(v);
  if (Array.isArray(v)) return v.map(fromCEL);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), fromCEL(x)]));
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return v;
  if (v !== null && typeof v === "object") {
    // The libraries' own values (net.IP, net.CIDR, URL, durations) give their text form.
    if (Object.getPrototypeOf(v) !== Object.prototype) return (v as { toString(): string }).toString();
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromCEL(x)]));
  }
  return v;
}
