import { normalizeInt } from "../util/json/json.ts";

/**
 * Deep copies of JSON data without a JSON.stringify/JSON.parse round trip. Parsing a ~1 KB object
 * costs about five times a plain tree copy (and structuredClone about ten times), and storage
 * copies on every write result, every watcher's event and every tryUpdate input.
 */

import { isStringMap } from "../util/json/string-maps.ts";

/** Returned by `jsonCopy` when a value is not plain JSON data (the caller then takes the JSON path). */
export const notPlain: unique symbol = Symbol("notPlain");

/**
 * A deep copy of `value` equal to `JSON.parse(JSON.stringify(value))` (the util/json round trip,
 * which keeps int64 bigints), or `notPlain` when the round trip would change anything besides
 * dropping `undefined` object members: functions, symbols, non-finite numbers, `undefined` or
 * holes in arrays, `toJSON`, class instances (Date, Map, ...), or a cycle too deep to copy. Key
 * order is kept, as JSON text keeps it. A string map nobody changes (util/json/string-maps.ts: a
 * near-limit body's labels) is shared, not copied: its 100,000 entries would hold the event loop
 * at every copy of the object.
 */
export function jsonCopy(value: unknown): unknown {
  return copyValue(value, 0);
}

/**
 * A deep copy of JSON data: the plain tree copy, or structuredClone for what is not plain JSON
 * (the copy then keeps what JSON would change).
 */
export function deepCopy<T>(value: T): T {
  const copy = jsonCopy(value);
  return copy === notPlain ? structuredClone(value) : (copy as T);
}

/** Nesting deeper than this is left to JSON (and its own errors). */
const maxDepth = 1000;

function copyValue(v: unknown, depth: number): unknown {
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      // JSON writes -0 as 0 and NaN/Infinity as null; only the first is kept here.
      return Number.isFinite(v) ? v + 0 : notPlain;
    case "bigint":
      // util/json reads back a bigint a double holds as written as that number, one beyond int64 as a double.
      return normalizeInt(v);
    case "object":
      if (v === null) return null;
      if (depth >= maxDepth) return notPlain;
      return Array.isArray(v) ? copyArray(v, depth + 1) : copyObject(v as Record<string, unknown>, depth + 1);
    default:
      return notPlain;
  }
}

function copyArray(a: unknown[], depth: number): unknown {
  if (Object.getPrototypeOf(a) !== Array.prototype) return notPlain;
  const out = new Array<unknown>(a.length);
  for (let i = 0; i < a.length; i++) {
    const c = a[i] === undefined ? notPlain : copyValue(a[i], depth);
    if (c === notPlain) return notPlain;
    out[i] = c;
  }
  return out;
}

/** Like `jsonCopy` for a plain object, leaving out the member `skip`. */
export function jsonCopyObject(o: object, skip?: string): Record<string, unknown> | typeof notPlain {
  return copyObject(o as Record<string, unknown>, 1, skip);
}

function copyObject(o: Record<string, unknown>, depth: number, skip?: string): Record<string, unknown> | typeof notPlain {
  if (isStringMap(o)) return o;
  const proto: unknown = Object.getPrototypeOf(o);
  if (proto !== Object.prototype && proto !== null) return notPlain;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v === undefined || k === skip) continue;
    if (k === "toJSON") return notPlain;
    const c = copyValue(v, depth);
    if (c === notPlain) return notPlain;
    if (k === "__proto__") setMember(out, k, c);
    else out[k] = c;
  }
  return out;
}

/** `out[k] = v`, except that "__proto__" becomes an own member (as JSON.parse makes it), not the prototype. */
export function setMember(out: Record<string, unknown>, k: string, v: unknown): void {
  if (k === "__proto__") Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
  else out[k] = v;
}
