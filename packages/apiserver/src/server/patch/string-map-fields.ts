/**
 * The field set managed fields record for a near-limit object's labels: a marked map of strings
 * (util/json/string-maps.ts) of 60,000 entries, every one a leaf, so the set is `f:<key>: {}` per
 * key, sorted. Built without createdFieldsV1's walk per entry, and for a create ahead of it a
 * slice at a time (`prepareFieldSets`), so that the create's managed fields take it in one short
 * step. The set is marked in turn: storage shares it and writes it a slice at a time.
 */
import type { TurnBudget } from "../../util/eventloop/turn-budget.ts";
import { isStringMap, markStringMap, sliceEntries } from "../../util/json/string-maps.ts";
import { isObject, type JSONObject } from "./json-value.ts";

/** Sets built by prepareFieldSets, by the map they record (with "."; nobody changes either). */
const prepared = new WeakMap<object, JSONObject>();

/** The set of a marked map whose keys are `sortedKeys`: with "." when the map itself is recorded. */
export function stringMapFields(sortedKeys: readonly string[], added: boolean): JSONObject {
  const out: JSONObject = added ? { ".": {} } : {};
  for (const k of sortedKeys) out[`f:${k}`] = {};
  markStringMap(out as Record<string, Record<string, never>>);
  return out;
}

/** The set prepareFieldSets built for `map`, recorded with "." (a map below the top level). */
export function preparedFieldSet(map: unknown): JSONObject | undefined {
  return isStringMap(map) ? prepared.get(map as object) : undefined;
}

/** Builds, a slice at a time, the set of each marked map of `obj.metadata` (labels, annotations). */
export async function prepareFieldSets(obj: JSONObject, budget: TurnBudget): Promise<void> {
  const meta = obj["metadata"];
  if (!isObject(meta)) return;
  for (const map of Object.values(meta)) {
    if (!isStringMap(map) || prepared.has(map as object)) continue;
    const keys = Object.keys(map as object);
    await budget.maybeYield();
    keys.sort();
    await budget.maybeYield();
    const out: JSONObject = { ".": {} };
    for (let i = 0; i < keys.length; i++) {
      out[`f:${keys[i]!}`] = {};
      if (i % sliceEntries === sliceEntries - 1) await budget.maybeYield();
    }
    markStringMap(out as Record<string, Record<string, never>>);
    prepared.set(map as object, out);
  }
}
