/**
 * Large `map[string]string` values (an object's labels and annotations) written and copied a slice
 * at a time. A near-limit object holds 60,000-100,000 labels: one JSON.stringify, one tree copy or
 * one "are all values strings?" walk of such a map holds the event loop for tens to hundreds of
 * milliseconds, where kube-apiserver's goroutines are preempted. The decoder checks a body's large
 * maps once (server/large-maps.ts) and marks them here; the answer and storage then write the
 * marked maps in slices without checking them again, and copies share them (storage/json-copy.ts).
 */
import { randomUUID } from "node:crypto";
import type { TurnBudget } from "../eventloop/turn-budget.ts";

/** Entries handled between two looks at the turn budget. */
export const sliceEntries = 1024;

/**
 * Maps known to hold only strings under keys other than `__proto__`, and changed by nobody after
 * they were marked (the server replaces an object's labels or annotations, it never edits them in
 * place): a request body's maps as decoded.
 */
const stringMaps = new WeakSet<object>();

/** Marks `m` as a string map nobody changes any more (see `stringMaps`). */
export function markStringMap(m: Record<string, string>): void {
  stringMaps.add(m);
}

/** True when `m` was marked by `markStringMap`. */
export function isStringMap(m: unknown): m is Record<string, string> {
  return typeof m === "object" && m !== null && stringMaps.has(m);
}

/**
 * `{"k":"v",...}` for `keys` of `map` (every value a string), built a slice at a time. With
 * `Object.keys(map)` as `keys` it is exactly `JSON.stringify(map)`, which writes an object's own
 * keys in that order.
 */
export async function stringMapJSON(map: Record<string, unknown>, keys: readonly string[], budget: TurnBudget): Promise<string> {
  const parts: string[] = [];
  for (let i = 0; i < keys.length; i++) {
    parts.push(`${JSON.stringify(keys[i])}:${JSON.stringify(map[keys[i]!])}`);
    if (i % sliceEntries === sliceEntries - 1) await budget.maybeYield();
  }
  await budget.maybeYield();
  return `{${parts.join(",")}}`;
}

/** A member of an object's metadata whose map is written a slice at a time, with its keys in the order to write. */
export interface SlicedMap {
  member: string;
  map: Record<string, unknown>;
  keys: readonly string[];
}

/**
 * The JSON of an object whose metadata is `meta`, with each of `maps` written a slice at a time:
 * `encode` gets a shallow copy of `meta` holding a unique marker string in place of each such map
 * and returns the whole object to write. The rest is written at once, before the first turn (the
 * caller may change it afterwards); the maps, which nobody changes, are written in turns and put
 * in place of their markers. `finish` gives the text.
 */
export function jsonWithSlicedMaps(
  meta: Record<string, unknown>,
  maps: readonly SlicedMap[],
  encode: (meta: Record<string, unknown>) => unknown,
): { finish(budget: TurnBudget): Promise<string> } {
  const copy = { ...meta };
  const markers = maps.map((m) => {
    const marker = `\u0000large-map-${randomUUID()}`;
    copy[m.member] = marker;
    return JSON.stringify(marker);
  });
  let json = JSON.stringify(encode(copy));
  return {
    async finish(budget: TurnBudget): Promise<string> {
      for (let i = 0; i < maps.length; i++) {
        const text = await stringMapJSON(maps[i]!.map, maps[i]!.keys, budget);
        // Each marker is written once, as the value of its member; a function replacement keeps `$` patterns literal.
        json = json.replace(markers[i]!, () => text);
      }
      return json;
    },
  };
}
