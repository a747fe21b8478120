/**
 * JSON.stringify for values that may hold bigints (the int64s util/json.ts keeps): the same text
 * JSON.stringify writes, with each bigint written as its digits, as encoding/json writes an int64.
 */

/**
 * `JSON.stringify(value)` that writes bigints as JSON integers. Values without one take
 * JSON.stringify alone (it throws at the first bigint it meets); then each member is tried with
 * JSON.stringify again and only those holding a bigint are walked here, so the cost stays near
 * JSON.stringify's when a bigint sits on one path of a large object.
 */
export function stringifyJSON(value: unknown): string {
  const native = tryNative(value);
  if (native !== bigintFound) return native;
  return write({ "": value }, "", value) ?? "null";
}

const bigintFound: unique symbol = Symbol("bigint");

/** JSON.stringify(v), or bigintFound when a bigint stopped it. */
function tryNative(v: unknown): string | typeof bigintFound {
  try {
    return JSON.stringify(v);
  } catch (e) {
    if (e instanceof TypeError && /BigInt/.test(e.message)) return bigintFound;
    throw e;
  }
}

/** The text of `v` (the member `key` of `holder`); undefined when JSON.stringify would leave it out. */
function write(holder: object, key: string, v: unknown): string | undefined {
  let value = v;
  if (value !== null && (typeof value === "object" || typeof value === "bigint")) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") value = (toJSON as (this: unknown, k: string) => unknown).call(value, key);
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  // A member without a bigint is JSON.stringify's alone.
  const native = tryNative(value);
  if (native !== bigintFound) return native;
  return Array.isArray(value) ? writeArray(value) : writeObject(value as Record<string, unknown>);
}

function writeArray(a: readonly unknown[]): string {
  let out = "[";
  for (let i = 0; i < a.length; i++) out += `${i > 0 ? "," : ""}${write(a, String(i), a[i]) ?? "null"}`;
  return `${out}]`;
}

function writeObject(o: Record<string, unknown>): string {
  let out = "";
  for (const k of Object.keys(o)) {
    const text = write(o, k, o[k]);
    if (text !== undefined) out += `${out === "" ? "" : ","}${JSON.stringify(k)}:${text}`;
  }
  return `{${out}}`;
}
