/**
 * managedFields bookkeeping (k8s.io/apimachinery/pkg/util/managedfields):
 * decoding entries into per-manager field sets, the Update-operation rule
 * (whoever changes a field takes it over) and encoding back, sorted as
 * upstream sorts them.
 */
import { deepEqual, isObject, type JSONObject, type JSONValue } from "./json-value.ts";
import { fromFieldsV1, nodeValues, resetFilter, toFieldsV1, type FieldSet } from "./fieldpath.ts";

/** A metav1.ManagedFieldsEntry. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: "Apply" | "Update";
  apiVersion: string;
  time?: string;
  fieldsType: "FieldsV1";
  fieldsV1: JSONObject;
  subresource?: string;
}

/** A decoded entry: identity, field set and whether it changed in this request. */
export interface ManagerState {
  entry: Omit<ManagedFieldsEntry, "fieldsV1" | "fieldsType">;
  set: FieldSet;
  touched: boolean;
}

/** Upstream's BuildManagerIdentifier: time and fields never count, apiVersion not for appliers. */
export function managerId(e: Pick<ManagedFieldsEntry, "manager" | "operation" | "apiVersion" | "subresource">): string {
  return JSON.stringify([e.manager, e.operation, e.operation === "Apply" ? "" : e.apiVersion, e.subresource ?? ""]);
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function formatTime(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Reads `metadata.managedFields` of `obj` into a map keyed by manager identity. */
export function decodeManagedFields(obj: JSONValue | undefined): Map<string, ManagerState> {
  const out = new Map<string, ManagerState>();
  const meta = isObject(obj) ? obj.metadata : undefined;
  const list = isObject(meta) ? meta.managedFields : undefined;
  if (!Array.isArray(list)) return out;
  for (const raw of list) {
    if (!isObject(raw)) continue;
    const { fieldsV1, fieldsType: _t, ...entry } = raw as unknown as ManagedFieldsEntry;
    out.set(managerId(entry), { entry, set: fromFieldsV1(fieldsV1), touched: false });
  }
  return out;
}

/** Encodes managers back into entries, dropping empty ones, sorted by operation, time, manager, apiVersion. */
export function encodeManagedFields(managers: Map<string, ManagerState>): ManagedFieldsEntry[] {
  const entries = [...managers.values()]
    .filter((m) => m.set.size > 0)
    .map((m) => ({ ...m.entry, fieldsType: "FieldsV1" as const, fieldsV1: toFieldsV1(m.set) }));
  const cmp = (a: string | undefined, b: string | undefined): number => ((a ?? "") < (b ?? "") ? -1 : (a ?? "") > (b ?? "") ? 1 : 0);
  return entries.sort(
    (a, b) => cmp(a.operation, b.operation) || cmp(a.time, b.time) || cmp(a.manager, b.manager) || cmp(a.apiVersion, b.apiVersion) || cmp(a.subresource, b.subresource),
  );
}

/** What changed between two objects, as paths (structured-merge-diff's Comparison). */
export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/** Compares `oldObj` with `newObj`; top-level struct fields (metadata, spec, status) are never "added" since Go always has them. */
export function compareObjects(kind: string, oldObj: JSONValue | undefined, newObj: JSONValue, subresource?: string): Comparison {
  const before = nodeValues(kind, oldObj);
  const after = nodeValues(kind, newObj);
  const c: Comparison = { added: new Set(), modified: new Set(), removed: new Set() };
  const owned = resetFilter(subresource);
  for (const k of [...before.keys(), ...after.keys()]) {
    if (!owned(k)) {
      before.delete(k);
      after.delete(k);
    }
  }
  for (const [k, n] of after) {
    const o = before.get(k);
    if (o === undefined) {
      if (n.member || (JSON.parse(k) as string[]).length > 1) c.added.add(k);
    } else if (n.leaf && !deepEqual(o.value, n.value)) {
      c.modified.add(k);
    }
  }
  for (const k of before.keys()) if (!after.has(k)) c.removed.add(k);
  return c;
}

function withManagedFields(obj: JSONObject, entries: ManagedFieldsEntry[]): JSONObject {
  const metadata = isObject(obj.metadata) ? { ...obj.metadata } : {};
  if (entries.length > 0) metadata.managedFields = entries as unknown as JSONValue;
  else delete metadata.managedFields;
  return { ...obj, metadata };
}

/** The managers of a request: the client's managedFields when it changed them, else the stored ones. */
function managersFor(oldObj: JSONValue | undefined, newObj: JSONObject): Map<string, ManagerState> {
  const oldList = isObject(oldObj) && isObject(oldObj.metadata) ? oldObj.metadata.managedFields : undefined;
  const newList = isObject(newObj.metadata) ? newObj.metadata.managedFields : undefined;
  if (Array.isArray(newList) && !deepEqual(oldList, newList)) return decodeManagedFields(newObj);
  return decodeManagedFields(oldObj);
}

/**
 * Records an Update (create, PUT, or a non-apply patch) by `manager`: it owns
 * every field it added or changed, other managers lose those fields, and
 * removed fields leave every set. Returns `newObj` with `metadata.managedFields`.
 */
export function updateManagedFields(
  oldObj: JSONValue | undefined,
  newObj: JSONObject,
  manager: string,
  operation: "Update" | "Apply",
  apiVersion: string,
  now: Date,
  subresource?: string,
): JSONObject {
  const managers = managersFor(oldObj, newObj);
  const kind = typeof newObj.kind === "string" ? newObj.kind : "";
  const c = compareObjects(kind, oldObj, newObj, subresource);
  const taken = new Set([...c.added, ...c.modified]);
  const entry = { manager, operation, apiVersion, ...(subresource ? { subresource } : {}) };
  const id = managerId(entry);
  for (const [k, m] of managers) {
    if (k === id) continue;
    const before = m.set.size;
    m.set = new Set([...m.set].filter((p) => !taken.has(p) && !c.removed.has(p)));
    m.touched = m.set.size !== before;
  }
  const own = managers.get(id) ?? { entry: { ...entry }, set: new Set<string>(), touched: true };
  const set = new Set([...own.set, ...taken].filter((p) => !c.removed.has(p)));
  if (set.size !== own.set.size || taken.size > 0) own.entry = { ...entry, time: formatTime(now) };
  own.set = set;
  managers.set(id, own);
  return withManagedFields(newObj, encodeManagedFields(managers));
}

export { withManagedFields };
