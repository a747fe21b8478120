/**
 * Conversions between JSON values and the values the CEL interpreter works on, as
 * k8s.io/apiserver/pkg/cel/common/values.go UnstructuredToVal does for schemaless data: a JSON
 * number without a fraction is a CEL int (a bigint here), any other number a double.
 */

/** A JSON value (an object decoded from a request, a param, an old object). */
export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

/** The CEL view of a JSON value: integral numbers become bigints; objects and lists are copied. */
export function toCEL(v: unknown): unknown {
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(toCEL);
  if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toCEL(x);
    return out;
  }
  return v;
}

/**
 * The JSON view of a CEL result (what a messageExpression or a mutation hands back): bigints
 * become numbers, Maps become objects; values of the library's own types keep their string form.
 */
export function fromCEL(v: unknown): unknown {
  if (typeof v === "bigint") return Number(v);
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
