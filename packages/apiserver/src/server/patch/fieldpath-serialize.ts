/**
 * FieldsV1, the tree encoding of a field set that managedFields use
 * (`{"f:spec":{"f:ports":{".":{}, ...}}}`), as sigs.k8s.io/structured-merge-diff's
 * fieldpath/serialize.go: encode, decode, and the shortcuts that work on the tree itself.
 */
import { isObject, type JSONObject, type JSONValue } from "./json-value.ts";
import { compareElements, keyPath, type FieldSet } from "./fieldpath-path.ts";

/** Encodes a set as FieldsV1; "." marks a path that is a member and has children. */
export function toFieldsV1(set: FieldSet): JSONObject {
  // No need to sort first: collapse orders every level (compareElements is a total order).
  const root: JSONObject = {};
  for (const k of set) {
    let node = root;
    for (const el of keyPath(k)) node = (Object.hasOwn(node, el) ? node[el] : (node[el] = {})) as JSONObject;
    node["."] = {};
  }
  return collapse(root);
}

function collapse(node: JSONObject): JSONObject {
  const keys = Object.keys(node);
  const dot = keys.indexOf(".");
  if (dot >= 0) keys.splice(dot, 1);
  if (keys.length === 0) return {};
  if (keys.length > 1) keys.sort(compareElements);
  const out: JSONObject = {};
  if (dot >= 0) out["."] = {};
  for (const k of keys) out[k] = collapse(node[k] as JSONObject);
  return out;
}

/** Decodes FieldsV1 into a set. */
export function fromFieldsV1(fields: JSONValue | undefined): FieldSet {
  const out: FieldSet = new Set();
  const walk = (node: JSONValue, open: string, depth: number): void => {
    if (!isObject(node)) return;
    const keys = Object.keys(node);
    if (depth > 0 && (keys.length === 0 || keys.includes("."))) out.add(`${open}]`);
    for (const k of keys) {
      if (k === ".") continue;
      const json = JSON.stringify(k);
      walk(node[k] as JSONValue, depth === 0 ? `[${json}` : `${open},${json}`, depth + 1);
    }
  };
  walk(fields ?? {}, "[", 0);
  return out;
}

/**
 * toFieldsV1(fromFieldsV1(fields)) straight from the tree, without parsing
 * path strings: what an entry whose set did not change encodes to. With
 * `keep`, paths of the tree it rejects are no members, which is
 * toFieldsV1 of the decoded set filtered by `keep`.
 */
export function normalizeFieldsV1(fields: JSONValue | undefined, keep?: (key: string) => boolean): JSONObject {
  return normalizeNode(fields ?? {}, "[", 0, keep) ?? {};
}

function normalizeNode(node: JSONValue, open: string, depth: number, keep: ((key: string) => boolean) | undefined): JSONObject | undefined {
  if (!isObject(node)) return undefined;
  const keys = Object.keys(node);
  const member = depth > 0 && (keys.length === 0 || keys.includes(".")) && (keep === undefined || keep(`${open}]`));
  const children: [string, JSONObject][] = [];
  for (const k of keys) {
    if (k === ".") continue;
    const childOpen = keep === undefined ? "" : depth === 0 ? `[${JSON.stringify(k)}` : `${open},${JSON.stringify(k)}`;
    const sub = normalizeNode(node[k] as JSONValue, childOpen, depth + 1, keep);
    if (sub !== undefined) children.push([k, sub]);
  }
  if (children.length === 0) return member || depth === 0 ? {} : undefined;
  if (children.length > 1) children.sort((a, b) => compareElements(a[0], b[0]));
  const out: JSONObject = member ? { ".": {} } : {};
  for (const [k, sub] of children) out[k] = sub;
  return out;
}

/**
 * toFieldsV1 of the set `tree` encodes (a normalizeFieldsV1 result) plus `paths`, without parsing
 * the tree's paths: only the nodes on the way to each added path are rebuilt, in order. A manager
 * that takes a few fields over keeps its other 60,000 as they were encoded.
 */
export function addPathsToFieldsV1(tree: JSONObject, paths: Iterable<string>): JSONObject {
  let out = tree;
  for (const k of paths) out = addPath(out, keyPath(k), 0);
  return out;
}

/** True when a normalized node at `depth` is a member itself. */
function isMemberNode(node: JSONObject, depth: number): boolean {
  if (depth === 0) return false;
  if (Object.hasOwn(node, ".")) return true;
  for (const _ in node) return false;
  return true;
}

function addPath(node: JSONObject | undefined, path: readonly string[], depth: number): JSONObject {
  const member = node !== undefined && isMemberNode(node, depth);
  if (depth === path.length) {
    if (node === undefined || member) return node ?? {};
    return rebuildNode(node, true, undefined, undefined);
  }
  const el = path[depth] as string;
  const child = node !== undefined && Object.hasOwn(node, el) ? (node[el] as JSONObject) : undefined;
  return rebuildNode(node ?? {}, member, el, addPath(child, path, depth + 1));
}

/** `node` in collapse's order: "." first when a member, then its children by compareElements, `el` set to `sub`. */
function rebuildNode(node: JSONObject, member: boolean, el: string | undefined, sub: JSONObject | undefined): JSONObject {
  const keys = Object.keys(node).filter((k) => k !== ".");
  if (el !== undefined && !Object.hasOwn(node, el)) {
    // Binary search for the new element's place among the ordered children.
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareElements(keys[mid] as string, el) < 0) lo = mid + 1;
      else hi = mid;
    }
    keys.splice(lo, 0, el);
  }
  const out: JSONObject = member ? { ".": {} } : {};
  for (const k of keys) out[k] = k === el ? (sub as JSONObject) : (node[k] as JSONValue);
  return out;
}
