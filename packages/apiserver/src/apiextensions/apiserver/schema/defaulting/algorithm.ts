/**
 * Structural defaulting (apiextensions-apiserver pkg/apiserver/schema/defaulting/algorithm.go
 * Default and prunenulls.go PruneNonNullableNullsWithoutDefaults): absent fields, and nulls
 * where the schema does not allow them, get the schema's `default`; nulls the schema neither
 * allows nor defaults are dropped.
 */
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function items(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  return s?.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
}

function additional(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  return typeof s?.additionalProperties === "object" ? s.additionalProperties : undefined;
}

const isNonNullableNull = (x: unknown, s: JSONSchemaProps | undefined): boolean => x === null && s !== undefined && s.nullable !== true;

/** Default: fills in defaults in place, recursively (defaults are defaulted in turn). */
export function applyDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const it = items(s);
    x.forEach((v, i) => {
      if (isNonNullableNull(v, it) && it?.default !== undefined) x[i] = structuredClone(it.default);
      applyDefaults(v, it);
    });
    return;
  }
  if (!isObject(x)) return;
  for (const [k, prop] of Object.entries(s.properties ?? {})) {
    if (prop.default === undefined) continue;
    if (!Object.hasOwn(x, k) || isNonNullableNull(x[k], prop)) x[k] = structuredClone(prop.default);
  }
  const ap = additional(s);
  for (const [k, v] of Object.entries(x)) {
    const prop = s.properties?.[k];
    if (prop !== undefined) applyDefaults(v, prop);
    else if (ap !== undefined) {
      if (isNonNullableNull(v, ap) && ap.default !== undefined) x[k] = structuredClone(ap.default);
      applyDefaults(x[k], ap);
    }
  }
}

function schemaForField(k: string, s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  return s?.properties?.[k] ?? additional(s);
}

/** PruneNonNullableNullsWithoutDefaults: nulls the schema does not allow and cannot default go. */
export function pruneNonNullableNullsWithoutDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (Array.isArray(x)) {
    for (const v of x) pruneNonNullableNullsWithoutDefaults(v, items(s));
    return;
  }
  if (!isObject(x)) return;
  for (const [k, v] of Object.entries(x)) {
    const sub = schemaForField(k, s);
    if (v === null && sub !== undefined && sub.nullable !== true && sub.default === undefined) delete x[k];
    else pruneNonNullableNullsWithoutDefaults(v, sub);
  }
}
