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
 * Maps known to hold only strings (or only empty objects: the field set managedFields records for
 * a map of strings) under keys other than `__proto__`, and changed by nobody after they were
 * marked (the server replaces an object's labels or annotations, it never edits them in place): a
 * request body's maps as decoded, and the field sets built for them.
 */
const stringMaps = new WeakSet<object>();

/** Marks `m` as a string map nobody changes any more (see `stringMaps`). */
export function markStringMap(m: Record<string, string> | Record<string, Record<string, never>>): void {
  stringMaps.add(m);
}

/** True when `m` was marked by `markStringMap`. */
export function isStringMap(m: unknown): boolean {
  return typeof m === "object" && m !== null && stringMaps.has(m);
}

/**
 * `{"k":"v",...}` for `keys` of `map` (every value a string or `{}`), built a slice at a time. With
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
 * Text with a unique marker string in place of each of some maps, which `finish` writes in turns
 * and puts in. The writers give undefined for a value JSON.stringify cannot write (a custom
 * resource's int64 bigints): the caller then writes it in one step with util/json's stringifyJSON.
 */
export interface SlicedJSON {
  finish(budget: TurnBudget): Promise<string>;
}

/** A fresh marker string, unlike any text an object holds. */
const newMarker = (): string => `\u0000large-map-${randomUUID()}`;

function spliced(value: unknown, pieces: Piece[]): SlicedJSON | undefined {
  let json: string;
  try {
    json = JSON.stringify(value, markedMaps(pieces));
  } catch (err) {
    if (err instanceof TypeError) return undefined;
    throw err;
  }
  return {
    async finish(budget: TurnBudget): Promise<string> {
      let out = json;
      for (const p of pieces) {
        const text = await stringMapJSON(p.map, p.keys, budget);
        // Each marker is written once, as the value of its member; a function replacement keeps `$` patterns literal.
        out = out.replace(JSON.stringify(p.marker), () => text);
      }
      return out;
    },
  };
}

/**
 * The JSON of an object whose metadata is `meta`, with each of `maps` written a slice at a time:
 * `encode` gets a shallow copy of `meta` holding a unique marker string in place of each such map
 * and returns the whole object to write; any marked map elsewhere in it (managedFields' field set
 * of the labels) is written a slice at a time too, in its own key order. The rest is written at
 * once, before the first turn (the caller may change it afterwards); the maps, which nobody
 * changes, are written in turns and put in place of their markers.
 */
export function jsonWithSlicedMaps(
  meta: Record<string, unknown>,
  maps: readonly SlicedMap[],
  encode: (meta: Record<string, unknown>) => unknown,
): SlicedJSON | undefined {
  const copy = { ...meta };
  const pieces: Piece[] = maps.map((m) => {
    const marker = newMarker();
    copy[m.member] = marker;
    return { marker, map: m.map, keys: m.keys };
  });
  return spliced(encode(copy), pieces);
}

type Piece = { marker: string; map: Record<string, unknown>; keys: readonly string[] };

/** A JSON.stringify replacer that puts a marker in place of each marked map, adding it to `pieces`. */
function markedMaps(pieces: Piece[]): (key: string, value: unknown) => unknown {
  return (_k, v) => {
    if (!isStringMap(v)) return v;
    const marker = newMarker();
    pieces.push({ marker, map: v as Record<string, unknown>, keys: Object.keys(v as object) });
    return marker;
  };
}

/**
 * `JSON.stringify(value)` with every marked map in it, wherever it is (labels, and the field set
 * managedFields records for them), written a slice at a time in its own key order; the rest is
 * written at once, as `jsonWithSlicedMaps` does.
 */
export function jsonWithMarkedMaps(value: unknown): SlicedJSON | undefined {
  return spliced(value, []);
}
