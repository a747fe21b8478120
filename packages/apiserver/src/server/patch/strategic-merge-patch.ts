/**
 * Strategic merge patch (`application/strategic-merge-patch+json`), as
 * k8s.io/apimachinery/pkg/util/strategicpatch applies it on the server:
 * lists with `patchStrategy: merge` merge by `patchMergeKey` (or as a set of
 * primitives), other lists replace, maps merge. Directives: `$patch`
 * (replace|delete|merge), `$retainKeys`, `$deleteFromPrimitiveList/<f>` and
 * `$setElementOrder/<f>` (what kubectl apply sends).
 */
import { StatusError } from "@servicenet/api";
import { clone, deepEqual, dropUnsafeKeys, isObject, type JSONObject, type JSONValue } from "./json-value.ts";
import { lookupFieldMeta, type FieldMeta } from "./patch-meta.ts";

const deleteFromPrefix = "$deleteFromPrimitiveList/";
const orderPrefix = "$setElementOrder/";

/** Applies a strategic merge patch to a copy of `doc` using the merge rules of `schemaKind`. */
export function applyStrategicMergePatch(doc: JSONValue, patch: unknown, schemaKind: string): JSONValue {
  if (!isObject(patch)) throw StatusError.badRequest("json: cannot unmarshal array into Go value of type map[string]interface {}");
  return mergeMap(isObject(doc) ? clone(doc) : {}, dropUnsafeKeys(patch), { kind: schemaKind, path: [] });
}

interface Ctx {
  kind: string;
  path: string[];
}

function child(ctx: Ctx, name: string): Ctx {
  return { kind: ctx.kind, path: [...ctx.path, name] };
}

function mergeMap(original: JSONObject, patch: JSONObject, ctx: Ctx, strategy?: FieldMeta["patchStrategy"]): JSONObject {
  const directive = patch.$patch;
  if (directive !== undefined) {
    if (directive === "replace") return stripDirectives(withoutKey(patch, "$patch"), ctx) as JSONObject;
    if (directive === "delete") return {};
    if (directive !== "merge")
      throw StatusError.badRequest(
        `unknown patch type: ${typeof directive === "string" ? directive : JSON.stringify(directive)} in map: ${JSON.stringify(patch)}`,
      );
  }
  if (strategy?.includes("retainKeys") || patch.$retainKeys !== undefined) retainKeys(original, patch);
  for (const [k, v] of Object.entries(patch)) {
    if (k === "$patch" || k === "$retainKeys" || k.startsWith(orderPrefix)) continue;
    if (k.startsWith(deleteFromPrefix)) {
      deleteFromPrimitiveList(original, k.slice(deleteFromPrefix.length), v);
      continue;
    }
    if (v === null) {
      delete original[k];
      continue;
    }
    const field = child(ctx, k);
    const meta = lookupFieldMeta(ctx.kind, field.path);
    const cur = original[k];
    if (isObject(v)) {
      original[k] =
        meta?.patchStrategy === "replace" || !isObject(cur) ? stripDirectives(v, field) : mergeMap(cur, v, field, meta?.patchStrategy);
    } else if (Array.isArray(v)) {
      original[k] = mergeList(Array.isArray(cur) ? cur : [], v, field, meta);
    } else {
      original[k] = v;
    }
  }
  for (const [k, v] of Object.entries(patch)) {
    if (!k.startsWith(orderPrefix)) continue;
    const name = k.slice(orderPrefix.length);
    const list = original[name];
    if (!Array.isArray(v)) throw StatusError.badRequest("invalid patch format of setElementOrder list");
    if (Array.isArray(list)) original[name] = applyElementOrder(list, v, lookupFieldMeta(ctx.kind, [...ctx.path, name])?.patchMergeKey);
  }
  return original;
}

function withoutKey(o: JSONObject, key: string): JSONObject {
  const { [key]: _drop, ...rest } = o;
  return rest;
}

/** A value taken whole from the patch still may carry directives deeper down: apply them to "nothing". */
function stripDirectives(v: JSONValue, ctx: Ctx): JSONValue {
  if (isObject(v)) return mergeMap({}, v, ctx);
  if (Array.isArray(v)) return mergeList([], v, ctx, lookupFieldMeta(ctx.kind, ctx.path));
  return v;
}

function retainKeys(original: JSONObject, patch: JSONObject): void {
  const keys = patch.$retainKeys;
  if (keys === undefined) return;
  if (!Array.isArray(keys)) throw StatusError.badRequest("invalid patch format of retainKeys");
  for (const k of Object.keys(patch)) {
    if (k.startsWith("$") || keys.includes(k)) continue;
    throw new StatusError(
      "Invalid",
      "the server rejected our request due to an error in our request",
      {},
      {
        cause: new Error("patch content doesn't match retainKeys list"),
      },
    );
  }
  for (const k of Object.keys(original)) if (!keys.includes(k)) delete original[k];
}

function deleteFromPrimitiveList(original: JSONObject, name: string, values: JSONValue): void {
  if (!Array.isArray(values)) throw StatusError.badRequest("invalid patch format of primitive list");
  const list = original[name];
  if (Array.isArray(list)) original[name] = list.filter((x) => !values.some((d) => deepEqual(d, x)));
}

function mergeList(original: JSONValue[], patch: JSONValue[], ctx: Ctx, meta: FieldMeta | undefined): JSONValue[] {
  const replaceAll = patch.some((x) => isObject(x) && x.$patch === "replace");
  const items = patch.filter((x) => !(isObject(x) && x.$patch === "replace"));
  if (!meta?.patchStrategy?.includes("merge") || replaceAll) {
    return items.map((x) => stripDirectives(x, ctx));
  }
  const key = meta.patchMergeKey;
  if (key === undefined || items.every((x) => !isObject(x))) {
    const out = [...original];
    for (const x of items) if (!out.some((o) => deepEqual(o, x))) out.push(x);
    return out;
  }
  const out = [...original];
  for (const item of items) {
    if (!isObject(item)) throw StatusError.badRequest(`invalid list item ${JSON.stringify(item)} for merge key ${key}`);
    if (!(key in item)) throw StatusError.internal(`map: ${JSON.stringify(item)} does not contain declared merge key: ${key}`);
    const at = out.findIndex((o) => isObject(o) && deepEqual(o[key], item[key]));
    if (item.$patch === "delete") {
      if (at >= 0) out.splice(at, 1);
      continue;
    }
    const cur = at >= 0 ? out[at] : undefined;
    const merged = mergeMap(isObject(cur) ? cur : {}, item, ctx, meta.patchStrategy);
    if (at >= 0) out[at] = merged;
    else out.push(merged);
  }
  return out;
}

/**
 * `$setElementOrder`: the items the order names move into the slots those
 * items occupy, in the order given; items only the server has keep their slot
 * (upstream normalizeElementOrder interleaves them in a similar way).
 */
function applyElementOrder(list: JSONValue[], order: JSONValue[], key: string | undefined): JSONValue[] {
  const rank = (x: JSONValue): number =>
    order.findIndex((o) => (key !== undefined && isObject(o) && isObject(x) ? deepEqual(o[key], x[key]) : deepEqual(o, x)));
  const covered = list.filter((x) => rank(x) >= 0).sort((a, b) => rank(a) - rank(b));
  let next = 0;
  return list.map((x) => (rank(x) >= 0 ? (covered[next++] as JSONValue) : x));
}
