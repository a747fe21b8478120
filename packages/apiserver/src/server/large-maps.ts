/**
 * A request body's huge metadata maps, checked in turns. kube-apiserver decodes a body on the
 * request's own goroutine; here a near-limit Service (60,000 labels) held the event loop for one
 * decode of hundreds of milliseconds (null dropping, Go type checks and zod's record parse each
 * walk every label), and every other request waited. `metadata.labels` and `metadata.annotations`
 * are `map[string]string` (k8s.io/apimachinery/pkg/apis/meta/v1/types.go ObjectMeta): when each of
 * their values is a string they decode to themselves, so such a map is checked a slice at a time
 * between turns of the loop and set aside while the rest of the body decodes; any other value
 * (a number, null, an object) leaves the map in the body, to be judged and reported exactly as
 * before. Answers are written the same way: such a map's JSON (keys sorted, as encoding/json
 * writes a map) is built a slice at a time and put in place of a marker in the rest's JSON.
 */
import { ObjectMetaSchema } from "@servicenet/api";
import type { TurnBudget } from "../util/eventloop/turn-budget.ts";
import { isStringMap, jsonWithSlicedMaps, markStringMap, sliceEntries, type SlicedMap } from "../util/json/string-maps.ts";
import { unwrap, type ZodLike } from "./openapi/zod-walk.ts";
import { stringifyJSON } from "../util/json/json.ts";

/** Maps with fewer entries decode with the rest of the body (one walk of them is short). */
export const largeMapMinEntries = 1024;

/** The ObjectMeta members that may be set aside. */
const mapMembers = ["labels", "annotations"] as const;

/** Maps set aside from a body's metadata, to be put back into the decoded object. */
export type DetachedMaps = Partial<Record<(typeof mapMembers)[number], Record<string, string>>>;

/** True when `schema` (a kind's zod object) decodes `metadata` with ObjectMeta. */
function hasObjectMeta(schema: unknown): boolean {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  const meta = shape?.["metadata"] as ZodLike | undefined;
  return meta !== undefined && typeof meta === "object" && "_zod" in meta && (unwrap(meta).inner as unknown) === ObjectMetaSchema;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/** True when every value of `m` is a string and no key is one an object copy would treat apart. */
async function allStrings(m: Record<string, unknown>, keys: readonly string[], budget: TurnBudget): Promise<boolean> {
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (k === "__proto__" || typeof m[k] !== "string") return false;
    if (i % sliceEntries === sliceEntries - 1) await budget.maybeYield();
  }
  return true;
}

/**
 * Sets aside the large string maps of `value.metadata` (a parsed body only this request holds),
 * leaving an empty map in their place so that the decoded metadata keeps its members' order; the
 * decoder puts them back with `reattachLargeMaps`. Undefined when nothing was set aside.
 */
export async function detachLargeMaps(schema: unknown, value: unknown, budget: TurnBudget): Promise<DetachedMaps | undefined> {
  if (!hasObjectMeta(schema) || !isPlainObject(value) || !isPlainObject(value["metadata"])) return undefined;
  const meta = value["metadata"];
  let detached: DetachedMaps | undefined;
  for (const member of mapMembers) {
    const m = meta[member];
    if (!isPlainObject(m)) continue;
    const keys = Object.keys(m);
    if (keys.length < largeMapMinEntries || !(await allStrings(m, keys, budget))) continue;
    (detached ??= {})[member] = m as Record<string, string>;
    // Checked once: the answer and storage write and copy it without walking it again.
    markStringMap(m as Record<string, string>);
    meta[member] = {};
  }
  return detached;
}

/** Puts the maps `detachLargeMaps` set aside into the decoded object's metadata. */
export function reattachLargeMaps(obj: Record<string, unknown>, detached: DetachedMaps): void {
  const meta = obj["metadata"] as Record<string, unknown>;
  for (const member of mapMembers) {
    const m = detached[member];
    if (m !== undefined) meta[member] = m;
  }
}

/** An array index key: JSON.stringify of an object writes those first, whatever the insertion order. */
const arrayIndex = /^(0|[1-9]\d{0,9})$/;

/** The string map at `meta[member]` when it is large and all strings, with its keys sorted; else undefined. */
async function sortedStringMap(m: unknown, budget: TurnBudget): Promise<{ map: Record<string, unknown>; keys: string[] } | undefined> {
  if (!isPlainObject(m)) return undefined;
  const keys = Object.keys(m);
  // A map the decoder marked is known to be all strings (detachLargeMaps); others are walked.
  if (keys.length < largeMapMinEntries || (!isStringMap(m) && !(await allStrings(m, keys, budget)))) return undefined;
  if (keys.some((k) => arrayIndex.test(k) && Number(k) < 2 ** 32 - 1)) return undefined;
  await budget.maybeYield();
  keys.sort();
  return { map: m, keys };
}

/**
 * `JSON.stringify(encode(obj))` where `encode` writes a string map with its keys sorted (the Go
 * field order of server/go-order.ts), giving the event loop turns while the large labels and
 * annotations of `obj.metadata` are written. `obj` is not changed: `encode` gets a shallow copy
 * holding a unique marker string in place of each large map.
 */
export async function jsonWithLargeMaps<T extends object>(obj: T, encode: (o: T) => unknown, budget: TurnBudget): Promise<string> {
  const meta = (obj as Record<string, unknown>)["metadata"];
  if (!isPlainObject(meta)) return stringifyJSON(encode(obj));
  const maps: SlicedMap[] = [];
  for (const member of mapMembers) {
    const m = await sortedStringMap(meta[member], budget);
    if (m !== undefined) maps.push({ member, map: m.map, keys: m.keys });
  }
  if (maps.length === 0) return stringifyJSON(encode(obj));
  const json = jsonWithSlicedMaps(meta, maps, (metadata) => encode({ ...obj, metadata }));
  if (json === undefined) return stringifyJSON(encode(obj));
  await budget.maybeYield();
  return json.finish(budget);
}
