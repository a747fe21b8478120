/**
 * ValidateListSetsAndMaps (apiextensions-apiserver pkg/apiserver/schema/listtype/validation.go):
 * items of `x-kubernetes-list-type: set` lists are unique, and so are the keys of `map` lists.
 */
import { field, keyPath, type FieldErrorList } from "@servicenet/api";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { goBadValue } from "../../validation/go-format.ts";
import { stringifyJSON } from "../../../../util/json/json.ts";

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The object's lists, under the schema's properties and additionalProperties. */
export function validateListSetsAndMaps(at: string, s: JSONSchemaProps | undefined, obj: Record<string, unknown>): FieldErrorList {
  if (s === undefined) return [];
  const errs: FieldErrorList = [];
  const ap = typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
  if (ap !== undefined) for (const [k, v] of Object.entries(obj)) errs.push(...validateValue(keyPath(at, k), ap, v));
  if (s.properties !== undefined)
    for (const [k, v] of Object.entries(obj)) {
      const sub = s.properties[k];
      if (sub !== undefined) errs.push(...validateValue(at === "" ? k : `${at}.${k}`, sub, v));
    }
  return errs;
}

function validateValue(at: string, s: JSONSchemaProps, v: unknown): FieldErrorList {
  if (Array.isArray(v)) return validateArray(at, s, v);
  if (isObject(v)) return validateListSetsAndMaps(at, s, v);
  return [];
}

function validateArray(at: string, s: JSONSchemaProps, list: unknown[]): FieldErrorList {
  const errs: FieldErrorList = [];
  if (s["x-kubernetes-list-type"] === "set")
    for (const i of nonUnique(list)) errs.push(field.duplicate(`${at}[${i}]`, goBadValue(list[i])));
  else if (s["x-kubernetes-list-type"] === "map") errs.push(...validateListMap(at, s["x-kubernetes-list-map-keys"] ?? [], list));
  const items = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
  if (items !== undefined) list.forEach((v, i) => errs.push(...validateValue(`${at}[${i}]`, items, v)));
  return errs;
}

/** validateListSet: the index of each value's second appearance. */
function nonUnique(list: unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  list.forEach((x, i) => {
    const key = stringifyJSON(x ?? null);
    const times = seen.get(key) ?? 0;
    seen.set(key, times + 1);
    if (times === 1) out.push(i);
  });
  return out;
}

/** validateListMap: items are objects (or null), unique by their key fields. */
function validateListMap(at: string, keys: readonly string[], list: unknown[]): FieldErrorList {
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (x !== null && x !== undefined && !isObject(x))
      return [field.invalid(`${at}[${i}]`, goBadValue(x), "must be an object for an array of list-type map")];
  }
  if (list.length <= 1) return [];
  const keyOf = (x: unknown): Record<string, unknown> => {
    const key: Record<string, unknown> = {};
    if (isObject(x)) for (const k of keys) if (Object.hasOwn(x, k)) key[k] = x[k];
    return key;
  };
  const ids = list.map(keyOf);
  return nonUnique(ids.map((k) => (keys.length === 1 ? (Object.hasOwn(k, keys[0]!) ? k : { "\u0000unspecified": true }) : k))).map((i) =>
    field.duplicate(`${at}[${i}]`, goBadValue(ids[i])),
  );
}
