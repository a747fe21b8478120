/**
 * Field sets of objects, in the shape of sigs.k8s.io/structured-merge-diff's fieldpath: the paths
 * an object sets (walked with the kind's list and map metadata), the fields the field manager
 * never tracks or resets, and the FieldsV1 an Update that creates an object records, built in
 * one walk. Paths and sets are in fieldpath-path.ts, the FieldsV1 encoding in fieldpath-serialize.ts.
 */
import { compareElements, type FieldPath, type FieldSet } from "./fieldpath-path.ts";
import { deepEqual, isObject, type JSONObject, type JSONValue } from "./json-value.ts";
import { kindMetaOf, lookupFieldMeta, type FieldMeta, type KindMeta } from "./patch-meta.ts";
import { childSchema, itemSchema, type FieldSchema, type SchemaNode } from "./field-schema.ts";
import { stringifyJSON } from "../../util/json/json.ts";
import { isStringMap } from "../../util/json/string-maps.ts";
import { preparedFieldSet, stringMapFields } from "./string-map-fields.ts";

/** Fields the field manager never tracks (upstream's stripMeta set): these top-level fields and these of metadata. */
const strippedTop = new Set(["apiVersion", "kind", "metadata"]);
const strippedMeta = new Set([
  "name",
  "namespace",
  "creationTimestamp",
  "selfLink",
  "uid",
  "clusterName",
  "generation",
  "managedFields",
  "resourceVersion",
]);

/**
 * Fields a request may not own (upstream's ResetFieldsStrategy): the main
 * resource never manages `status`, the status subresource never `spec`.
 */
export function resetFilter(subresource: string | undefined): (key: string) => boolean {
  return resetFilterOf(resetField(subresource));
}

/** The top-level field resetFilter leaves out for `subresource`. */
export function resetField(subresource: string | undefined): string {
  return subresource === "status" ? "spec" : "status";
}

function resetFilterOf(field: string): (key: string) => boolean {
  const prefix = `[${JSON.stringify(`f:${field}`)}`;
  return (key) => !(key === `${prefix}]` || key.startsWith(`${prefix},`));
}

/** Sorted list-map key names per FieldMeta: the element text orders them by name. */
const sortedKeys = new WeakMap<FieldMeta, readonly string[]>();

/** The element naming `item` (at `index`) of a list whose metadata is `meta`. */
export function elementOf(meta: FieldMeta | undefined, item: JSONValue, index: number): string {
  if (meta?.listType === "set") return `v:${stringifyJSON(item)}`;
  if (meta?.listType === "map" && isObject(item)) {
    let keys = sortedKeys.get(meta);
    if (keys === undefined) sortedKeys.set(meta, (keys = [...(meta.listMapKeys ?? [])].sort()));
    const o: JSONObject = {};
    for (const k of keys) {
      const v = item[k] ?? meta.keyDefaults?.[k];
      if (v !== undefined) o[k] = v;
    }
    return `k:${stringifyJSON(o)}`;
  }
  return `i:${index}`;
}

/** The element naming `item` of the list at `names` (field names only) of `kind`. */
export function itemElement(kind: string, names: readonly string[], item: JSONValue, index: number): string {
  return elementOf(lookupFieldMeta(kind, names), item, index);
}

/** Visits every node of `obj` as structured-merge-diff would, with its path and whether it is a member. */
export function walkFields(kind: string, obj: JSONValue, visit: (path: FieldPath, value: JSONValue, member: boolean) => void): void {
  const path: string[] = [];
  walkNodes(kind, obj, (_key, depth, _item, value, leaf) => visit(path.slice(0, depth), value, leaf), { path });
}

/**
 * Called per node with its set key (pathKey of its path), path length,
 * whether the path ends in a list item, its value, whether it is a leaf and
 * whether it is a member (a leaf, or a field its schema does not declare: field-schema.ts).
 */
type NodeVisitor = (key: string, depth: number, item: boolean, value: JSONValue, leaf: boolean, member: boolean) => void;

interface WalkOptions {
  /** Leave out this top-level field and everything under it (resetFilter's field). */
  skipTop?: string;
  /** Do not visit stripped paths (their descendants still are), as every field set leaves them out. */
  strip?: boolean;
  /** Mirrors the current path's elements; only the first `depth` entries are meaningful. */
  path?: string[];
  /**
   * The object `obj` is compared with: a member of a map (outside lists) whose value equals the
   * twin's member at the same place is left out with all below it, since it holds the same nodes
   * with the same values in both and so adds nothing to a comparison. Walking both objects each
   * with the other as twin leaves out the same nodes from both walks.
   */
  twin?: JSONValue;
  /**
   * Equality of members with their twins by key, filled by the first of two walks that compare
   * the same pair of objects and read by the second, so each pair of subtrees is compared once.
   */
  twinEqual?: Map<string, boolean>;
  /** A custom resource's schema: the fields it does not declare are members (field-schema.ts). */
  schema?: FieldSchema;
}

/** No twin below this node: it is inside a list (items pair by key, not by place) or the twin lacks it. */
const noTwin: unique symbol = Symbol("noTwin");

/**
 * Bounded memo of a pure function of a string: field names and paths repeat
 * across objects of a kind, and a full memo starts over rather than grow.
 */
function memo<T>(f: (s: string) => T, limit: number): (s: string) => T {
  const cache = new Map<string, T>();
  return (s) => {
    let v = cache.get(s);
    if (v === undefined) {
      if (cache.size >= limit) cache.clear();
      cache.set(s, (v = f(s)));
    }
    return v;
  };
}

/** `f:<name>`, one string per name. */
const fieldElement = memo((name) => `f:${name}`, 8192);
/** JSON text of `f:<name>`. */
const fieldJSON = memo((name) => JSON.stringify(`f:${name}`), 8192);

/**
 * walkFields without the per-node path arrays: keys are built by appending
 * one JSON-encoded element to the parent's key text, and the dotted field
 * names index the kind's metadata table directly.
 */
function walkNodes(kind: string, obj: JSONValue, visit: NodeVisitor, opts: WalkOptions = {}): void {
  const table = kindMetaOf(kind);
  const { skipTop, strip = false, path } = opts;
  const rootTwin = Object.hasOwn(opts, "twin") ? opts.twin : noTwin;
  const twinEqual = opts.twinEqual ?? new Map<string, boolean>();
  // `open` is the key without its closing bracket: `[` at the root, `["f:spec","f:ports"` below.
  // `stripped` says this node is one of the stripped paths, `inMeta` that it is the top-level metadata.
  const walk = (
    v: JSONValue,
    open: string,
    depth: number,
    names: string,
    nameCount: number,
    item: boolean,
    stripped: boolean,
    inMeta: boolean,
    twin: JSONValue | undefined | typeof noTwin,
    s: SchemaNode,
    undeclared: boolean,
  ): void => {
    const meta = table[names];
    const key = depth === 0 ? "[]" : `${open}]`;
    const show = !(strip && stripped);
    if (isObject(v)) {
      const keys = Object.keys(v);
      const leaf = meta?.mapType === "atomic" || (keys.length === 0 && depth > 0);
      if (depth > 0 && show) visit(key, depth, item, v, leaf, leaf || undeclared);
      if (leaf) return;
      const twins = twin !== noTwin && isObject(twin) ? twin : undefined;
      for (const k of keys) {
        if (depth === 0 && k === skipTop) continue;
        const child = v[k] as JSONValue;
        const childNames = nameCount === 0 ? k : `${names}.${k}`;
        const childStripped = depth === 0 ? strippedTop.has(k) : inMeta && strippedMeta.has(k);
        // A stripped atomic value (metadata.managedFields) shows nothing: no need to compare it.
        if (strip && childStripped && !isObject(child) && (table[childNames]?.listType ?? "atomic") === "atomic") continue;
        const json = fieldJSON(k);
        const childOpen = depth === 0 ? `[${json}` : `${open},${json}`;
        const childTwin = twins !== undefined && Object.hasOwn(twins, k) ? twins[k] : noTwin;
        if (childTwin !== noTwin) {
          let equal = twinEqual.get(childOpen);
          if (equal === undefined) twinEqual.set(childOpen, (equal = deepEqual(child, childTwin)));
          if (equal) continue;
        }
        if (path) path[depth] = `f:${k}`;
        const cs = childSchema(s, k, depth);
        const inMetaNext = depth === 0 && k === "metadata";
        walk(child, childOpen, depth + 1, childNames, nameCount + 1, false, childStripped, inMetaNext, childTwin, cs.child, cs.undeclared);
      }
    } else if (Array.isArray(v)) {
      const atomic = (meta?.listType ?? "atomic") === "atomic";
      if (show) visit(key, depth, item, v, atomic, atomic || undeclared);
      if (atomic) return;
      const set = meta?.listType === "set";
      for (let i = 0; i < v.length; i++) {
        const it = v[i] as JSONValue;
        const el = elementOf(meta, it, i);
        if (path) path[depth] = el;
        const json = JSON.stringify(el);
        const open2 = depth === 0 ? `[${json}` : `${open},${json}`;
        // Item paths end in k:/v:/i:, so they are never stripped.
        if (set || !isObject(it)) visit(`${open2}]`, depth + 1, true, it, true, true);
        else walk(it, open2, depth + 1, names, nameCount, true, false, false, noTwin, itemSchema(s), false);
      }
    } else if (show) {
      visit(key, depth, item, v, true, true);
    }
  };
  walk(obj, "[", 0, "", 0, false, false, false, rootTwin, opts.schema, false);
}

/** ToFieldSet: the member paths of `obj` (scalars, atomic values, empty maps, list items). */
export function toFieldSet(kind: string, obj: JSONValue, schema?: FieldSchema): FieldSet {
  const out: FieldSet = new Set();
  walkNodes(
    kind,
    obj,
    (k, _depth, item, _v, _leaf, member) => {
      if (member || item) out.add(k);
    },
    schema === undefined ? { strip: true } : { strip: true, schema },
  );
  return out;
}

/** A node of an object: its value, whether it is a set member, whether it is a leaf (compared by value), and its path length. */
export interface NodeValue {
  value: JSONValue;
  member: boolean;
  leaf: boolean;
  depth: number;
}

/**
 * Every node of `obj` (members and intermediates) with its value, for
 * comparisons; `skipTop` leaves out a top-level field (resetFilter's).
 * With `twin` (the object compared with), members equal to the twin's are
 * left out (WalkOptions.twin), so a comparison costs what changed plus one
 * equality pass, not a path per node of both objects.
 */
export function nodeValues(
  kind: string,
  obj: JSONValue | undefined,
  skipTop?: string,
  twin?: JSONValue,
  twinEqual?: Map<string, boolean>,
  schema?: FieldSchema,
): Map<string, NodeValue> {
  const out = new Map<string, NodeValue>();
  if (obj === undefined) return out;
  const opts: WalkOptions = { skipTop, strip: true, ...(schema ? { schema } : {}) };
  walkNodes(
    kind,
    obj,
    (k, depth, item, value, leaf, member) => {
      out.set(k, { value, member: member || item, leaf, depth });
    },
    twin === undefined ? opts : { ...opts, twin, ...(twinEqual ? { twinEqual } : {}) },
  );
  return out;
}

/** The `names` of a field below which the kind's metadata table has no entry (a dotted name never contains a newline). */
const noMeta = "\n";

const namePrefixes = new WeakMap<KindMeta, ReadonlySet<string>>();

/** Every proper prefix (`spec`, `spec.ports`) of the table's dotted names: the names that may have entries below them. */
function namePrefixesOf(table: KindMeta): ReadonlySet<string> {
  const known = namePrefixes.get(table);
  if (known !== undefined) return known;
  const set = new Set<string>();
  for (const name of Object.keys(table)) for (let i = name.indexOf("."); i >= 0; i = name.indexOf(".", i + 1)) set.add(name.slice(0, i));
  namePrefixes.set(table, set);
  return set;
}

/**
 * The FieldsV1 an Update that creates `obj` records, built in one walk:
 * equal to toFieldsV1 of compareObjects(kind, undefined, obj, subresource)'s
 * added set (every node below the top level, top-level members, minus
 * stripped and reset fields). Undefined when `obj` is not an object or a
 * list names two items alike, which the set-based path handles.
 */
export function createdFieldsV1(kind: string, obj: JSONValue, subresource?: string): JSONObject | undefined {
  if (!isObject(obj)) return undefined;
  const table = kindMetaOf(kind);
  const prefixes = namePrefixesOf(table);
  const skip = resetField(subresource);
  let duplicate = false;

  // The subtree of `v` at depth >= 1, undefined when neither it nor anything below is recorded.
  const node = (
    v: JSONValue,
    depth: number,
    names: string,
    nameCount: number,
    item: boolean,
    isStrippedNode: boolean,
    isMeta: boolean,
  ): JSONObject | undefined => {
    const meta = names === noMeta ? undefined : table[names];
    if (isObject(v)) {
      // A marked map's set built ahead, in turns (string-map-fields.ts): it is recorded with "." below the top level.
      const ready = meta?.mapType !== "atomic" && !isStrippedNode && (item || depth > 1) ? preparedFieldSet(v) : undefined;
      if (ready !== undefined) return ready;
      const keys = Object.keys(v);
      const leaf = meta?.mapType === "atomic" || keys.length === 0;
      const added = !isStrippedNode && (leaf || item || depth > 1);
      if (leaf) return added ? {} : undefined;
      if (keys.length > 1) keys.sort();
      if (isStringMap(v)) return stringMapFields(keys, added);
      let out: JSONObject | undefined;
      // Below a name no entry of the table starts with, no field has metadata: no names to build.
      const named = nameCount === 0 || prefixes.has(names);
      for (const k of keys) {
        const sub = node(
          v[k] as JSONValue,
          depth + 1,
          !named ? noMeta : nameCount === 0 ? k : `${names}.${k}`,
          nameCount + 1,
          false,
          isMeta && strippedMeta.has(k),
          false,
        );
        if (sub === undefined) continue;
        out ??= added ? { ".": {} } : {};
        out[fieldElement(k)] = sub;
      }
      return out ?? (added ? {} : undefined);
    }
    if (Array.isArray(v)) {
      const atomic = (meta?.listType ?? "atomic") === "atomic";
      const added = !isStrippedNode && (atomic || item || depth > 1);
      if (atomic || v.length === 0) return added ? {} : undefined;
      const set = meta?.listType === "set";
      const items: [string, JSONObject][] = [];
      for (let i = 0; i < v.length; i++) {
        const it = v[i] as JSONValue;
        const el = elementOf(meta, it, i);
        // Items are at depth >= 2, so always recorded.
        items.push([el, set || !isObject(it) ? {} : (node(it, depth + 1, names, nameCount, true, false, false) as JSONObject)]);
      }
      if (items.length > 1) items.sort((a, b) => compareElements(a[0], b[0]));
      const out: JSONObject = added ? { ".": {} } : {};
      for (let i = 0; i < items.length; i++) {
        const [el, sub] = items[i] as [string, JSONObject];
        if (i > 0 && (items[i - 1] as [string, JSONObject])[0] === el) duplicate = true;
        out[el] = sub;
      }
      return out;
    }
    return isStrippedNode ? undefined : {};
  };

  const keys = Object.keys(obj);
  if (keys.length > 1) keys.sort();
  const root: JSONObject = {};
  for (const k of keys) {
    if (k === skip) continue;
    const sub = node(obj[k] as JSONValue, 1, k, 1, false, strippedTop.has(k), k === "metadata");
    if (sub !== undefined) root[fieldElement(k)] = sub;
  }
  return duplicate ? undefined : root;
}
