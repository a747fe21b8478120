/**
 * The structural operations server-side apply needs on objects: merge an
 * applied configuration into the live object (structured-merge-diff's
 * Merge: associative lists by key, sets by value, atomic values replaced)
 * and remove owned-but-no-longer-applied paths (prune).
 */
import { clone, isObject, type JSONObject, type JSONValue } from "./json-value.ts";
import { itemElement } from "./fieldpath.ts";
import { keyPath } from "./fieldpath-path.ts";
import { lookupFieldMeta } from "./patch-meta.ts";

/** Merges `config` into `live` (neither is modified). */
export function mergeApplied(kind: string, live: JSONValue | undefined, config: JSONValue): JSONValue {
  return merge(kind, live === undefined ? undefined : clone(live), clone(config), []);
}

function merge(kind: string, live: JSONValue | undefined, config: JSONValue, names: string[]): JSONValue {
  const meta = lookupFieldMeta(kind, names);
  if (isObject(config)) {
    if (!isObject(live) || meta?.mapType === "atomic") return config;
    for (const [k, v] of Object.entries(config)) {
      if (v === null) {
        // structured-merge-diff merges a null map with a non-empty live one as an absent value:
        // `metadata: null` keeps the live name, labels and finalizers (only pruning removes them).
        if (keepsLive(kind, live[k], [...names, k])) continue;
        delete live[k];
      } else live[k] = merge(kind, live[k], v, [...names, k]);
    }
    return live;
  }
  if (Array.isArray(config)) {
    const type = meta?.listType ?? "atomic";
    if (!Array.isArray(live) || type === "atomic") return config;
    const el = (x: JSONValue, i: number): string => itemElement(kind, names, x, i);
    const out = [...live];
    config.forEach((item, i) => {
      const at = out.findIndex((o, j) => el(o, j) === el(item, i));
      if (at < 0) out.push(item);
      else if (type === "map") out[at] = merge(kind, out[at], item, names);
    });
    return out;
  }
  return config;
}

function keepsLive(kind: string, live: JSONValue | undefined, names: string[]): boolean {
  return isObject(live) && Object.keys(live).length > 0 && lookupFieldMeta(kind, names)?.mapType !== "atomic";
}

/** How removePaths leaves a map or list that its removals emptied. */
export interface RemoveOptions {
  /**
   * The object is unstructured (a custom resource): an emptied map or list becomes `null` in its
   * parent, as structured-merge-diff's RemoveItems (typed/remove.go removingWalker) leaves it, and
   * the schema judges that null. Otherwise it is dropped, as a typed object's omitempty drops it.
   */
  unstructured?: boolean;
  /**
   * The applied configuration: of an unstructured object, only a container the configuration
   * itself sets to null stays null once emptied (the applier owns that null); one the applier
   * dropped is removed with its fields, as upstream's prune removes a named field that is no
   * longer applied (merge/update.go, `EnsureNamedFieldsAreMembers`).
   */
  applied?: JSONValue;
}

/** Removes every path in `paths` (JSON-encoded FieldPaths) from `obj` in place, then handles containers left empty. */
export function removePaths(kind: string, obj: JSONObject, paths: Iterable<string>, opts: RemoveOptions = {}): void {
  // Shallowest first: a removed list item takes its fields with it, and its key
  // (which names it) is still intact when it is looked up. Items are found by key, not index.
  const sorted = [...paths].map(keyPath).sort((a, b) => a.length - b.length);
  const applied = opts.unstructured === true ? (opts.applied ?? null) : undefined;
  for (const p of sorted) removeOne(kind, obj, p, applied);
}

type Chain = { node: JSONValue; names: string[] }[];

function removeOne(kind: string, root: JSONObject, path: string[], applied: JSONValue | undefined): void {
  const chain: Chain = [{ node: root, names: [] }];
  let cur: JSONValue = root;
  let names: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const el = path[i] as string;
    const next = step(kind, cur, el, names);
    if (next === undefined) return;
    if (el.startsWith("f:")) names = [...names, el.slice(2)];
    if (i === path.length - 1) {
      detach(kind, cur, el, names);
      break;
    }
    cur = next;
    chain.push({ node: cur, names });
  }
  if (applied !== undefined) nullEmptied(chain, path, applied);
  else dropEmptied(chain, path);
}

const isEmpty = (node: JSONValue): boolean =>
  (isObject(node) && Object.keys(node).length === 0) || (Array.isArray(node) && node.length === 0);

/** Upstream serialises typed objects through Go structs with omitempty, so emptied maps and lists disappear. */
function dropEmptied(chain: Chain, path: string[]): void {
  for (let i = chain.length - 1; i > 1; i--) {
    const { node } = chain[i] as { node: JSONValue };
    if (!isEmpty(node)) break;
    const parent = (chain[i - 1] as { node: JSONValue }).node;
    // By identity: an emptied list item no longer carries the key that named it.
    if (Array.isArray(parent)) parent.splice(parent.indexOf(node), 1);
    else if (isObject(parent)) delete parent[(path[i - 1] as string).slice(2)];
  }
}

/**
 * removingWalker.doMap/doList: a map or list whose removals left nothing is written as null in
 * its parent, which then holds that null and is not empty itself.
 */
function nullEmptied(chain: Chain, path: string[], applied: JSONValue): void {
  const i = chain.length - 1;
  const { node } = chain[i] as { node: JSONValue };
  if (i < 1 || !isEmpty(node)) return;
  if (!appliedNull(applied, path.slice(0, i))) {
    dropEmptied(chain, path);
    return;
  }
  const parent = (chain[i - 1] as { node: JSONValue }).node;
  if (Array.isArray(parent)) parent[parent.indexOf(node)] = null;
  else if (isObject(parent)) parent[(path[i - 1] as string).slice(2)] = null;
}

/** Whether the applied configuration sets the field at `els` (field elements only) to null. */
function appliedNull(applied: JSONValue, els: string[]): boolean {
  let cur: JSONValue | undefined = applied;
  for (const el of els) {
    if (!el.startsWith("f:") || !isObject(cur)) return false;
    cur = cur[el.slice(2)];
  }
  return cur === null;
}

function step(kind: string, cur: JSONValue, el: string, names: string[]): JSONValue | undefined {
  if (el.startsWith("f:")) return isObject(cur) ? cur[el.slice(2)] : undefined;
  if (!Array.isArray(cur)) return undefined;
  return cur.find((x, i) => itemElement(kind, names, x, i) === el);
}

function detach(kind: string, parent: JSONValue, el: string, names: string[]): void {
  if (el.startsWith("f:")) {
    if (isObject(parent)) delete parent[el.slice(2)];
    return;
  }
  if (!Array.isArray(parent)) return;
  const at = parent.findIndex((x, i) => itemElement(kind, names, x, i) === el);
  if (at >= 0) parent.splice(at, 1);
}
