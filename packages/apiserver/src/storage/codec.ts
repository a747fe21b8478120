/**
 * Object <-> stored bytes. Stored JSON never contains `metadata.resourceVersion` (upstream's
 * `PrepareObjectForStorage`); the revision is set on the way out from the engine's mod revision.
 */
import { formatRFC3339 } from "../util/time/rfc3339.ts";
import { randomUUID } from "node:crypto";
import type { KubeObject, StoredObjectMeta } from "./interfaces.ts";
import type { RawKV } from "./kv.ts";
import { deepCopy, jsonCopy, jsonCopyObject, notPlain, setMember } from "./json-copy.ts";
import type { TurnBudget } from "../util/eventloop/turn-budget.ts";
import { parseJSON, stringifyJSON } from "../util/json/json.ts";
import { isStringMap, jsonWithMarkedMaps } from "../util/json/string-maps.ts";

/** JSON text to store for `obj`, without resourceVersion (a custom resource's int64s as their digits). */
export function encode(obj: KubeObject): string {
  const { resourceVersion: _rv, ...meta } = obj.metadata ?? {};
  return stringifyJSON({ ...obj, metadata: meta });
}

/** What a write stores: `encode(obj)`, and `storedCopy` of it. */
export interface EncodedForStorage {
  value: string;
  stored: KubeObject;
}

/**
 * `encode(obj)` and `storedCopy(obj, value)`, both begun at once, before the caller can change
 * `obj`. Its marked maps (util/json/string-maps.ts: a near-limit body's labels and the field set
 * managedFields records for them, which nobody changes) are written a slice at a time with turns
 * of the event loop in between, in the order JSON.stringify writes them, and shared by the copy.
 */
export async function encodeForStorage(obj: KubeObject, budget: TurnBudget): Promise<EncodedForStorage> {
  const { resourceVersion: _rv, ...meta } = obj.metadata ?? {};
  // Only an object with a marked map in its metadata (a near-limit body's labels) takes the sliced
  // writer, whose replacer would slow every other write down; one it cannot write (int64 bigints)
  // is written at once.
  const json = Object.values(meta).some(isStringMap) ? jsonWithMarkedMaps({ ...obj, metadata: meta }) : undefined;
  if (json === undefined) {
    const value = encode(obj);
    return { value, stored: storedCopy(obj, value) };
  }
  const copy = copyForStorage(obj);
  const value = await json.finish(budget);
  return { value, stored: copy ?? (parseJSON(value) as KubeObject) };
}

/**
 * The object stored as `value` at `revision`. Integers JSON.stringify did not write (a custom
 * resource's int64 beyond a double) read back as the bigints they were (util/json); every other
 * value is what JSON.parse gives.
 */
export function decode(value: string, revision: number): KubeObject {
  const obj = parseJSON(value) as KubeObject;
  obj.metadata = { ...(obj.metadata ?? {}), resourceVersion: String(revision) };
  return obj;
}

/**
 * `decode(kv.value, kv.modRevision)`, from the RawKV's `decoded` copy when it still has one (a
 * tree copy already made costs nothing here; a JSON.parse of the value costs a few times a copy).
 * The copy is handed out once and dropped, so nobody else holds the object returned.
 */
export function decodeKV(kv: RawKV): KubeObject {
  const obj = kv.decoded;
  if (obj === undefined) return decode(kv.value, kv.modRevision);
  kv.decoded = undefined;
  return atRevision(obj, kv.modRevision);
}

/** A copy of a writer's stored value for KVWrite/RawKV `decoded`; undefined when it is not plain JSON data (then the value is parsed). */
export function decodedCopy(stored: KubeObject): KubeObject | undefined {
  const copy = jsonCopy(stored);
  return copy === notPlain ? undefined : (copy as KubeObject);
}

/**
 * What reading back `value = encode(obj)` gives, before a revision is set (`JSON.parse(value)`).
 * Built by copying `obj` rather than parsing `value`, so a write's result costs a tree copy instead
 * of a JSON.parse; anything a JSON round trip would change other than dropped `undefined` members
 * takes the parse. Call it after `encode` before anyone can change `obj` (before the caller gets
 * it back), so the copy shows exactly the bytes written; the result shares nothing with `obj`.
 */
export function storedCopy(obj: KubeObject, value: string): KubeObject {
  return copyForStorage(obj) ?? (parseJSON(value) as KubeObject);
}

/** `stored` (from `storedCopy`) as read at `revision`: the same object as `decode(value, revision)`. */
export function atRevision(stored: KubeObject, revision: number): KubeObject {
  stored.metadata.resourceVersion = String(revision);
  return stored;
}

function copyForStorage(obj: KubeObject): KubeObject | null {
  const rawMeta: unknown = obj.metadata ?? {};
  if (typeof rawMeta !== "object" || rawMeta === null || Array.isArray(rawMeta)) return null;
  const meta = jsonCopyObject(rawMeta, "resourceVersion");
  if (meta === notPlain) return null;
  const proto: unknown = Object.getPrototypeOf(obj);
  if (proto !== Object.prototype && proto !== null) return null;
  const out: Record<string, unknown> = {};
  let placed = false;
  for (const k of Object.keys(obj)) {
    if (k === "metadata") {
      out[k] = meta;
      placed = true;
      continue;
    }
    const v = obj[k];
    if (v === undefined) continue;
    if (k === "toJSON") return null;
    const c = jsonCopy(v);
    if (c === notPlain) return null;
    setMember(out, k, c);
  }
  // encode's `{...obj, metadata}` keeps metadata where obj has it, else appends it.
  if (!placed) out["metadata"] = meta;
  return out as KubeObject;
}

/** A deep copy, so callers' tryUpdate functions can mutate what they get. */
export function clone(obj: KubeObject): KubeObject {
  // Stored objects are JSON data, so the plain tree copy applies; anything else keeps structuredClone.
  return deepCopy(obj);
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function nowTimestamp(): string {
  return formatRFC3339();
}

/** Fills uid and creationTimestamp where the registry has not already set them (generation is the strategies'). */
export function withCreateMeta(obj: KubeObject): KubeObject {
  // Leaving resourceVersion out by destructuring, not `delete`: a delete turns the new metadata into a
  // slow dictionary-mode object (measured: the create's metadata step and its encode, 7 us -> 3.5 us).
  const { resourceVersion: _rv, ...meta }: StoredObjectMeta = obj.metadata ?? {};
  meta.uid ??= randomUUID();
  meta.creationTimestamp ??= nowTimestamp();
  return { ...obj, metadata: meta };
}
