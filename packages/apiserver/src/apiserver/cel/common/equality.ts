/**
 * How ratcheting relates a new value to its old one (k8s.io/apiserver/pkg/cel/common/equality.go
 * CorrelatedObject): object fields correlate by key, items of `x-kubernetes-list-type: map` lists
 * by their map keys, and no other list items correlate. A value is unchanged when every child
 * correlates and is unchanged, so a reordered map list is unchanged; other lists compare whole.
 */
import { semanticEqual } from "@servicenet/api";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";

/** The old value correlated with a node being validated. */
export interface Correlated {
  value: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

const itemsOf = (s: JSONSchemaProps): JSONSchemaProps | undefined =>
  s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;

/** correlateOldValueForChildAtNewIndex: the item of a map-type `oldList` with the map keys of `item`. */
export function correlateListItem(s: JSONSchemaProps, item: unknown, oldList: unknown): Correlated | undefined {
  if (!Array.isArray(oldList) || s["x-kubernetes-list-type"] !== "map" || !isObject(item)) return undefined;
  const keys = s["x-kubernetes-list-map-keys"] ?? [];
  const found = oldList.find((o) => isObject(o) && keys.every((k) => semanticEqual(o[k], item[k])));
  return found === undefined ? undefined : { value: found };
}

/** CorrelatedObject.Key: the old value of field `k`, when both have it and the schema describes it. */
export function correlateField(s: JSONSchemaProps, k: string, old: unknown, value: unknown): Correlated | undefined {
  if (!isObject(old) || !isObject(value) || !Object.hasOwn(old, k) || !Object.hasOwn(value, k)) return undefined;
  if (!Object.hasOwn(s.properties ?? {}, k) && typeof s.additionalProperties !== "object") return undefined;
  return { value: old[k] };
}

const fieldSchema = (s: JSONSchemaProps, k: string): JSONSchemaProps | undefined =>
  s.properties?.[k] ?? (typeof s.additionalProperties === "object" ? s.additionalProperties : undefined);

/** CorrelatedObject.CachedDeepEqual: whether `value` is unchanged from its correlated `old`. */
export function correlatedDeepEqual(s: JSONSchemaProps | undefined, old: unknown, value: unknown): boolean {
  if (old === null || old === undefined || value === null || value === undefined) return old == value;
  if (s === undefined) return semanticEqual(old, value);
  if (Array.isArray(old) || Array.isArray(value)) {
    if (!Array.isArray(old) || !Array.isArray(value) || old.length !== value.length) return false;
    if (s["x-kubernetes-list-type"] !== "map") return semanticEqual(old, value);
    const items = itemsOf(s);
    return value.every((v) => {
      const c = correlateListItem(s, v, old);
      return c !== undefined && items !== undefined && correlatedDeepEqual(items, c.value, v);
    });
  }
  if (isObject(old) || isObject(value)) {
    if (!isObject(old) || !isObject(value) || Object.keys(old).length !== Object.keys(value).length) return false;
    return Object.keys(value).every((k) => {
      const c = correlateField(s, k, old, value);
      return c !== undefined && correlatedDeepEqual(fieldSchema(s, k), c.value, value[k]);
    });
  }
  return semanticEqual(old, value);
}
