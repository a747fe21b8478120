/** RFC 7386 JSON merge patch (`application/merge-patch+json`). */
import { StatusError } from "@servicenet/api";
import { clone, dropUnsafeKeys, isObject, type JSONValue } from "./json-value.ts";

/**
 * Applies a merge patch: objects merge recursively, `null` deletes a key,
 * anything else (arrays included) replaces. A non-object patch of an object
 * is rejected with 400 as jsonpatch.MergePatch's ErrBadJSONPatch is upstream.
 */
export function applyMergePatch(doc: JSONValue, patch: unknown): JSONValue {
  patch = dropUnsafeKeys(patch);
  if (!isObject(patch)) {
    if (isObject(doc)) throw StatusError.badRequest("Invalid JSON Patch");
    return clone(patch as JSONValue);
  }
  return mergeInto(isObject(doc) ? clone(doc) : {}, patch);
}

function mergeInto(target: { [k: string]: JSONValue }, patch: { [k: string]: JSONValue }): JSONValue {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete target[k];
    } else if (isObject(v)) {
      const cur = target[k];
      target[k] = mergeInto(isObject(cur) ? cur : {}, v);
    } else {
      target[k] = clone(v);
    }
  }
  return target;
}
