/**
 * Field sets in the shape of sigs.k8s.io/structured-merge-diff's fieldpath:
 * a path is a list of elements `f:<field>`, `k:<json keys>`, `v:<json value>`
 * or `i:<index>`; a set is the collection of member paths. FieldsV1 is the
 * tree encoding managedFields uses (`{"f:spec":{"f:ports":{".":{}, ...}}}`).
 */
import { isObject, type JSONObject, type JSONValue } from "./json-value.ts";
import { lookupFieldMeta } from "./patch-meta.ts";

/** One path; each element is a FieldsV1 key. */
export type FieldPath = readonly string[];

/** A set of paths; keys are JSON-encoded paths so that set algebra stays trivial. */
export type FieldSet = Set<string>;

export const pathKey = (p: FieldPath): string => JSON.stringify(p);
export const keyPath = (k: string): string[] => JSON.parse(k) as string[];

/** Fields the field manager never tracks (upstream's stripMeta set). */
const stripped = new Set(
  [["apiVersion"], ["kind"], ["metadata"], ...["name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName", "generation", "managedFields", "resourceVersion"].map((f) => ["metadata", f])].map(
    (p) => pathKey(p.map((f) => `f:${f}`)),
  ),
);

/**
 * Fields a request may not own (upstream's ResetFieldsStrategy): the main
 * resource never manages `status`, the status subresource never `spec`.
 */
export function resetFilter(subresource: string | undefined): (key: string) => boolean {
  const prefix = subresource === "status" ? '["f:spec"' : '["f:status"';
  return (key) => !(key === `${prefix}]` || key.startsWith(`${prefix},`));
}

/** The element naming `item` of the list at `names` (field names only) of `kind`. */
export function itemElement(kind: string, names: readonly string[], item: JSONValue, index: number): string {
  const meta = lookupFieldMeta(kind, names);
  if (meta?.listType === "set") return `v:${JSON.stringify(item)}`;
  if (meta?.listType === "map" && isObject(item)) {
    const keys = [...(meta.listMapKeys ?? [])].sort();
    const o: JSONObject = {};
    for (const k of keys) {
      const v = item[k] ?? meta.keyDefaults?.[k];
      if (v !== undefined) o[k] = v;
    }
    return `k:${JSON.stringify(o)}`;
  }
  return `i:${index}`;
}

/** Visits every node of `obj` as structured-merge-diff would, with its path and whether it is a member. */
export function walkFields(kind: string, obj: JSONValue, visit: (path: FieldPath, value: JSONValue, member: boolean) => void): void {
  const walk = (v: JSONValue, path: string[], names: string[]): void => {
    const meta = lookupFieldMeta(kind, names);
    if (isObject(v)) {
      const entries = Object.entries(v);
      const leaf = meta?.mapType === "atomic" || (entries.length === 0 && path.length > 0);
      if (path.length > 0) visit(path, v, leaf);
      if (leaf) return;
      for (const [k, c] of entries) walk(c, [...path, `f:${k}`], [...names, k]);
    } else if (Array.isArray(v)) {
      const atomic = (meta?.listType ?? "atomic") === "atomic";
      visit(path, v, atomic);
      if (atomic) return;
      v.forEach((item, i) => {
        const p = [...path, itemElement(kind, names, item, i)];
        if (meta?.listType === "set" || !isObject(item)) visit(p, item, true);
        else walk(item, p, names);
      });
    } else {
      visit(path, v, true);
    }
  };
  walk(obj, [], []);
}

/** True when a list item path (k: or v:) is itself a member: list items always are. */
const isItem = (p: FieldPath): boolean => /^[kvi]:/.test(p[p.length - 1] ?? "");

/** ToFieldSet: the member paths of `obj` (scalars, atomic values, empty maps, list items). */
export function toFieldSet(kind: string, obj: JSONValue): FieldSet {
  const out: FieldSet = new Set();
  walkFields(kind, obj, (p, _v, member) => {
    const k = pathKey(p);
    if ((member || isItem(p)) && !stripped.has(k)) out.add(k);
  });
  return out;
}

/** A node of an object: its value, whether it is a set member, and whether it is a leaf (compared by value). */
export interface NodeValue {
  value: JSONValue;
  member: boolean;
  leaf: boolean;
}

/** Every node of `obj` (members and intermediates) with its value, for comparisons. */
export function nodeValues(kind: string, obj: JSONValue | undefined): Map<string, NodeValue> {
  const out = new Map<string, NodeValue>();
  if (obj === undefined) return out;
  walkFields(kind, obj, (p, value, leaf) => {
    const k = pathKey(p);
    if (!stripped.has(k)) out.set(k, { value, member: leaf || isItem(p), leaf });
  });
  return out;
}

/** Encodes a set as FieldsV1; "." marks a path that is a member and has children. */
export function toFieldsV1(set: FieldSet): JSONObject {
  const root: JSONObject = {};
  for (const k of [...set].sort()) {
    let node = root;
    for (const el of keyPath(k)) node = (node[el] ??= {}) as JSONObject;
    node["."] = {};
  }
  return collapse(root);
}

function collapse(node: JSONObject): JSONObject {
  const keys = Object.keys(node).filter((k) => k !== ".").sort(compareElements);
  if (keys.length === 0) return {};
  const out: JSONObject = {};
  if ("." in node) out["."] = {};
  for (const k of keys) out[k] = collapse(node[k] as JSONObject);
  return out;
}

/** `f:` before `k:` before `v:` before `i:`, then by text, as structured-merge-diff sorts elements. */
function compareElements(a: string, b: string): number {
  const order = "fkvi";
  const d = order.indexOf(a[0] ?? "") - order.indexOf(b[0] ?? "");
  if (d !== 0) return d;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Decodes FieldsV1 into a set. */
export function fromFieldsV1(fields: JSONValue | undefined): FieldSet {
  const out: FieldSet = new Set();
  const walk = (node: JSONValue, path: string[]): void => {
    if (!isObject(node)) return;
    const keys = Object.keys(node);
    if (path.length > 0 && (keys.length === 0 || keys.includes("."))) out.add(pathKey(path));
    for (const k of keys) if (k !== ".") walk(node[k] as JSONValue, [...path, k]);
  };
  walk(fields ?? {}, []);
  return out;
}

/** Renders a path as upstream's Path.String(): `.spec.ports[port=80,protocol="TCP"].targetPort`. */
export function pathString(p: FieldPath): string {
  return p
    .map((el) => {
      const body = el.slice(2);
      if (el.startsWith("f:")) return `.${body}`;
      if (el.startsWith("i:")) return `[${body}]`;
      if (el.startsWith("v:")) return `[=${body}]`;
      const keys = JSON.parse(body) as JSONObject;
      return `[${Object.entries(keys).map(([n, v]) => `${n}=${JSON.stringify(v)}`).join(",")}]`;
    })
    .join("");
}
