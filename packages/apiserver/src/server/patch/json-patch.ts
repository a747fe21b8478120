/**
 * RFC 6902 JSON patch (`application/json-patch+json`), with the status codes
 * kube-apiserver's patch handler gives: an undecodable patch is 400 BadRequest,
 * more than 10000 operations is 413, and any operation that does not apply
 * (a failed `test`, a missing path) is 422 with upstream's generic message.
 */
import { StatusError } from "@servicenet/api";
import { clone, deepEqual, dropUnsafeKeys, isObject, type JSONValue } from "./json-value.ts";
import { parseIndex, parsePointer } from "./json-pointer.ts";
import { stringifyJSON } from "../../util/json/json.ts";

/** One operation as decoded from the patch body. */
export interface JSONPatchOperation {
  op: string;
  path: string;
  from?: string;
  value?: JSONValue;
}

/** Upstream's maxJSONPatchOperations. */
export const maxJSONPatchOperations = 10000;

/**
 * The most bytes `copy` operations may add to a document (evanphx/json-patch's
 * AccumulatedCopySizeLimit, set to the request body limit): without it, a 1 KiB patch of doubling
 * copies grows a document exponentially and exhausts the server's memory.
 */
export const maxAccumulatedCopyBytes = 3 * 1024 * 1024;

/** The text NewGenericServerResponse(422) produces; the detail only goes to the error's cause. */
const notApplied = "the server rejected our request due to an error in our request";

/** Validates the decoded body's shape the way jsonpatch.DecodePatch plus the op checks do. */
export function decodeJSONPatch(body: unknown): JSONPatchOperation[] {
  if (!Array.isArray(body)) {
    throw StatusError.badRequest(`json: cannot unmarshal ${jsonKind(body)} into Go value of type jsonpatch.Patch`);
  }
  if (body.length > maxJSONPatchOperations) {
    throw new StatusError(
      "RequestEntityTooLarge",
      `The allowed maximum operations in a JSON patch is ${maxJSONPatchOperations}, got ${body.length}`,
    );
  }
  return body.map((op) => {
    if (!isObject(op)) throw StatusError.badRequest(`json: cannot unmarshal ${jsonKind(op)} into Go value of type jsonpatch.Operation`);
    return op as unknown as JSONPatchOperation;
  });
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (v === null) return "null";
  return typeof v === "object" ? "object" : typeof v;
}

/** Applies `ops` to a copy of `doc` and returns it; throws StatusError (422) when an operation fails. */
export function applyJSONPatch(doc: JSONValue, ops: unknown): JSONValue {
  const decoded = decodeJSONPatch(dropUnsafeKeys(ops));
  let out = clone(doc);
  const copied = { bytes: 0 };
  for (const op of decoded) {
    try {
      out = applyOne(out, op, copied);
    } catch (e) {
      if (e instanceof StatusError) throw e;
      throw new StatusError("Invalid", notApplied, {}, { cause: e });
    }
  }
  return out;
}

function requirePath(op: JSONPatchOperation, key: "path" | "from"): string[] {
  const p = op[key];
  if (typeof p !== "string") throw new Error(`${op.op} operation failed to decode ${key}`);
  return parsePointer(p);
}

function applyOne(doc: JSONValue, op: JSONPatchOperation, copied: { bytes: number }): JSONValue {
  switch (op.op) {
    case "add":
      return add(doc, requirePath(op, "path"), valueOf(op));
    case "remove":
      return remove(doc, requirePath(op, "path")).doc;
    case "replace": {
      const path = requirePath(op, "path");
      const parent = path.length > 0 ? get(doc, path.slice(0, -1)) : undefined;
      // evanphx/json-patch v4 (kube-apiserver's patch handler and mutating webhook dispatcher):
      // partialDoc.get of a missing member is no error, so replace sets it as add would; an
      // array element, and every step above the last, must exist.
      if (parent !== undefined && isObject(parent)) {
        parent[path[path.length - 1] as string] = valueOf(op);
        return doc;
      }
      get(doc, path);
      return add(remove(doc, path).doc, path, valueOf(op));
    }
    case "move": {
      const from = requirePath(op, "from");
      const path = requirePath(op, "path");
      const { doc: removed, value } = remove(doc, from);
      return add(removed, path, value);
    }
    case "copy": {
      const value = get(doc, requirePath(op, "from"));
      copied.bytes += stringifyJSON(value).length;
      if (copied.bytes > maxAccumulatedCopyBytes) {
        throw new Error(
          `Unable to complete the copy, the accumulated size increase of copy is ${copied.bytes}, exceeding the limit ${maxAccumulatedCopyBytes}`,
        );
      }
      return add(doc, requirePath(op, "path"), clone(value));
    }
    case "test": {
      const path = requirePath(op, "path");
      if (!deepEqual(get(doc, path), valueOf(op))) throw new Error(`testing value ${op.path} failed: test failed`);
      return doc;
    }
    default:
      throw new Error(`Unexpected kind: ${String(op.op)}`);
  }
}

function valueOf(op: JSONPatchOperation): JSONValue {
  if (!("value" in op)) throw new Error(`${op.op} operation has no value`);
  return clone(op.value as JSONValue);
}

/** The value at `path`; throws when any step is missing. */
function get(doc: JSONValue, path: readonly string[]): JSONValue {
  let cur: JSONValue = doc;
  for (const t of path) {
    if (Array.isArray(cur)) {
      const v: JSONValue | undefined = cur[parseIndex(t, cur.length, false)];
      if (v === undefined) throw new Error(`doc is missing path`);
      cur = v;
    } else if (isObject(cur) && Object.hasOwn(cur, t)) {
      cur = cur[t] as JSONValue;
    } else {
      throw new Error(`doc is missing path: "${t}"`);
    }
  }
  return cur;
}

function add(doc: JSONValue, path: readonly string[], value: JSONValue): JSONValue {
  if (path.length === 0) return value;
  const parent = get(doc, path.slice(0, -1));
  const last = path[path.length - 1] as string;
  if (Array.isArray(parent)) parent.splice(parseIndex(last, parent.length, true), 0, value);
  else if (isObject(parent)) parent[last] = value;
  else throw new Error(`add operation does not apply: doc is missing path: "${last}"`);
  return doc;
}

function remove(doc: JSONValue, path: readonly string[]): { doc: JSONValue; value: JSONValue } {
  if (path.length === 0) return { doc: null, value: doc };
  const parent = get(doc, path.slice(0, -1));
  const last = path[path.length - 1] as string;
  if (Array.isArray(parent)) {
    const [value] = parent.splice(parseIndex(last, parent.length, false), 1);
    return { doc, value: value as JSONValue };
  }
  if (isObject(parent) && Object.hasOwn(parent, last)) {
    const value = parent[last] as JSONValue;
    delete parent[last];
    return { doc, value };
  }
  throw new Error(`remove operation does not apply: doc is missing path: "${last}"`);
}
