/**
 * JSON.stringify for values that may hold bigints (the int64s util/json.ts keeps): the same text
 * JSON.stringify writes, with each bigint written as its digits, as encoding/json writes an int64.
 */

/**
 * `JSON.stringify(value)` that writes bigints as JSON integers. Values without one take
 * JSON.stringify alone (the first bigint it meets throws, and only then is the value walked here).
 */
export function stringifyJSON(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError) || !/BigInt/.test(e.message)) throw e;
  }
  const out: string[] = [];
  write(out, { "": value }, "", value);
  return out.join("");
}

/** Writes `v` (the member `key` of `holder`); false when JSON.stringify would leave it out. */
function write(out: string[], holder: object, key: string, v: unknown): boolean {
  let value = v;
  if (value !== null && (typeof value === "object" || typeof value === "bigint")) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") value = (toJSON as (k: string) => unknown).call(value, key);
  }
  switch (typeof value) {
    case "bigint":
      out.push(value.toString());
      return true;
    case "object":
      if (value === null) out.push("null");
      else if (Array.isArray(value)) writeArray(out, value);
      else if (value instanceof Number || value instanceof String || value instanceof Boolean) out.push(JSON.stringify(value));
      else writeObject(out, value as Record<string, unknown>);
      return true;
    case "undefined":
    case "function":
    case "symbol":
      return false;
    default:
      out.push(JSON.stringify(value));
      return true;
  }
}

function writeArray(out: string[], a: readonly unknown[]): void {
  out.push("[");
  for (let i = 0; i < a.length; i++) {
    if (i > 0) out.push(",");
    if (!write(out, a, String(i), a[i])) out.push("null");
  }
  out.push("]");
}

function writeObject(out: string[], o: Record<string, unknown>): void {
  out.push("{");
  let first = true;
  for (const k of Object.keys(o)) {
    const mark = out.length;
    out.push(first ? "" : ",", JSON.stringify(k), ":");
    if (write(out, o, k, o[k])) first = false;
    else out.length = mark;
  }
  out.push("}");
}
