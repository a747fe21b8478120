/** Small helpers over decoded JSON values shared by the patch implementations. */

import { deepCopy } from "../../storage/json-copy.ts";

export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };
export type JSONObject = { [key: string]: JSONValue };

/** True for a plain JSON object (not an array, not null). */
export function isObject(v: unknown): v is JSONObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Structural equality of two JSON values; key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Plain loops: this runs over every label of a near-limit object per write, where a closure per member shows.
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!Object.hasOwn(b, k) || !deepEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/** A deep copy; JSON values only, so the plain tree copy (a few times cheaper than structuredClone) is exact. */
export function clone<T>(v: T): T {
  return deepCopy(v);
}

/**
 * Drops `__proto__` keys, which JSON.parse creates as own properties and a
 * plain assignment would turn into a prototype change. No Kubernetes type
 * has such a field, so dropping it is what decoding would do anyway.
 */
export function dropUnsafeKeys<T>(v: T): T {
  if (Array.isArray(v)) return v.map(dropUnsafeKeys) as T;
  if (!isObject(v)) return v;
  const out: JSONObject = {};
  for (const [k, c] of Object.entries(v)) if (k !== "__proto__") out[k] = dropUnsafeKeys(c);
  return out as T;
}
