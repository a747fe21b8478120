/**
 * managedFields bookkeeping (k8s.io/apimachinery/pkg/util/managedfields):
 * decoding entries into per-manager field sets, the Update-operation rule
 * (whoever changes a field takes it over) and encoding back, sorted as
 * upstream sorts them.
 */
import { deepEqual, isObject, type JSONObject, type JSONValue } from "./json-value.ts";
import { managedFieldsError } from "./managed-fields-validate.ts";
import { createdFieldsV1 } from "./fieldpath.ts";
import type { FieldSchema } from "./field-schema.ts";
import type { FieldSet } from "./fieldpath-path.ts";
import { addPathsToFieldsV1, fromFieldsV1, normalizeFieldsV1, toFieldsV1 } from "./fieldpath-serialize.ts";
import { sortManagedFieldsEntries } from "./managed-fields-order.ts";
import { updateOwnedFields } from "./managed-fields-owned.ts";
import {
  compareObjects,
  formatTime,
  managerId,
  withManagedFields,
  type Comparison,
  type ManagedFieldsEntry,
} from "./managed-fields-entry.ts";

export { compareObjects, formatTime, managerId, withManagedFields, type Comparison, type ManagedFieldsEntry };

/** A decoded entry: identity, field set and whether it changed in this request. */
export interface ManagerState {
  entry: Omit<ManagedFieldsEntry, "fieldsV1" | "fieldsType">;
  /** Replaced, never changed in place: encoding compares it with `decoded.set`. */
  set: FieldSet;
  touched: boolean;
  /** The entry's FieldsV1 as read and the set decoded from it; while `set` is that set, it encodes by normalizing the tree. */
  decoded?: { fieldsV1: JSONValue | undefined; set: FieldSet };
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
    const set = fromFieldsV1(fieldsV1);
    out.set(managerId(entry), { entry, set, touched: false, decoded: { fieldsV1, set } });
  }
  return out;
}

/** True when every path of `a` is in `b`. */
function isSubset(a: FieldSet, b: FieldSet): boolean {
  if (a.size > b.size) return false;
  for (const p of a) if (!b.has(p)) return false;
  return true;
}

/**
 * toFieldsV1(m.set). A set that is still the decoded one, or a part of it
 * (another manager took or removed paths), is encoded from the FieldsV1 it
 * was read from, which spares parsing every path back.
 */
function encodeSet(m: ManagerState): JSONObject {
  const d = m.decoded;
  if (d === undefined) return toFieldsV1(m.set);
  if (d.set === m.set) return normalizeFieldsV1(d.fieldsV1);
  if (isSubset(m.set, d.set)) return normalizeFieldsV1(d.fieldsV1, (k) => m.set.has(k));
  // A few paths taken over (an Update of one field of a big object): added to the tree read.
  const added = newPaths(m.set, d.set, maxAddedPaths);
  if (added !== undefined)
    return addPathsToFieldsV1(
      normalizeFieldsV1(d.fieldsV1, (k) => m.set.has(k)),
      added,
    );
  return toFieldsV1(m.set);
}

/** Beyond this many new paths a set is encoded from its paths (each added path rebuilds its ancestors). */
const maxAddedPaths = 64;

/** The paths of `set` not in `decoded`, or undefined when there are more than `limit`. */
function newPaths(set: FieldSet, decoded: FieldSet, limit: number): string[] | undefined {
  const out: string[] = [];
  for (const p of set) {
    if (decoded.has(p)) continue;
    if (out.length === limit) return undefined;
    out.push(p);
  }
  return out;
}

/** Encodes managers back into entries, dropping empty ones, sorted by operation, time, manager, apiVersion. */
export function encodeManagedFields(managers: Map<string, ManagerState>): ManagedFieldsEntry[] {
  const entries = [...managers.values()]
    .filter((m) => m.set.size > 0)
    .map((m) => ({ ...m.entry, fieldsType: "FieldsV1" as const, fieldsV1: encodeSet(m) }));
  return sortManagedFieldsEntries(entries);
}

/**
 * The managers of a request: the client's managedFields when it changed them and they decode, else
 * the stored ones (upstream's FieldManager.Update falls back to the live object's on a decode error).
 */
function managersFor(oldObj: JSONValue | undefined, newObj: JSONObject): Map<string, ManagerState> {
  const oldList = isObject(oldObj) && isObject(oldObj.metadata) ? oldObj.metadata.managedFields : undefined;
  const newList = isObject(newObj.metadata) ? newObj.metadata.managedFields : undefined;
  if (Array.isArray(newList) && !deepEqual(oldList, newList) && managedFieldsError(newList) === undefined)
    return decodeManagedFields(newObj);
  return decodeManagedFields(oldObj);
}

/** True when `set` holds any path of `paths`. */
function holdsAny(set: FieldSet, paths: FieldSet): boolean {
  for (const p of paths) if (set.has(p)) return true;
  return false;
}

/**
 * Records an Update (create, PUT, or a non-apply patch) by `manager`: it owns
 * every field it added or changed, other managers lose those fields, and
 * removed fields leave every set. Returns `newObj` with `metadata.managedFields`.
 * A create without client-supplied managedFields builds its one entry's
 * FieldsV1 in a single walk (createdFieldsV1); everything else takes the
 * set-based path (updateManagedFieldsGeneral), which gives the same result.
 * `schema` is a custom resource's (its undeclared fields are members: field-schema.ts).
 */
export function updateManagedFields(
  oldObj: JSONValue | undefined,
  newObj: JSONObject,
  manager: string,
  operation: "Update" | "Apply",
  apiVersion: string,
  now: Date,
  subresource?: string,
  schema?: FieldSchema,
): JSONObject {
  // The one-walk create path knows no schemas: a custom resource's takes the set-based path.
  if (oldObj === undefined && schema === undefined) {
    const list = isObject(newObj.metadata) ? newObj.metadata.managedFields : undefined;
    if (!Array.isArray(list) || list.length === 0) {
      const kind = typeof newObj.kind === "string" ? newObj.kind : "";
      const fieldsV1 = createdFieldsV1(kind, newObj, subresource);
      if (fieldsV1 !== undefined) {
        if (Object.keys(fieldsV1).length === 0) return withManagedFields(newObj, []);
        const entry = { manager, operation, apiVersion, ...(subresource ? { subresource } : {}), time: formatTime(now) };
        return withManagedFields(newObj, [{ ...entry, fieldsType: "FieldsV1", fieldsV1 }]);
      }
    }
  }
  // An update that only changes fields its manager alone owns already (a Lease renewal, a kubelet's
  // Pod status) leaves every field set as it was: only that manager's time moves.
  // One comparison serves both paths.
  const kind = typeof newObj.kind === "string" ? newObj.kind : "";
  const c = compareObjects(kind, oldObj, newObj, subresource, schema);
  if (oldObj !== undefined) {
    const owned = updateOwnedFields(oldObj, newObj, manager, operation, apiVersion, now, subresource, schema, c);
    if (owned !== undefined) return owned;
  }
  return updateManagedFieldsGeneral(oldObj, newObj, manager, operation, apiVersion, now, subresource, schema, c);
}

/**
 * updateManagedFields by field-set algebra for every case; exported so tests can hold the fast
 * paths to it. `comparison`: compareObjects of the two objects, when the caller has it.
 */
export function updateManagedFieldsGeneral(
  oldObj: JSONValue | undefined,
  newObj: JSONObject,
  manager: string,
  operation: "Update" | "Apply",
  apiVersion: string,
  now: Date,
  subresource?: string,
  schema?: FieldSchema,
  comparison?: Comparison,
): JSONObject {
  const managers = managersFor(oldObj, newObj);
  const c = comparison ?? compareObjects(typeof newObj.kind === "string" ? newObj.kind : "", oldObj, newObj, subresource, schema);
  const taken: FieldSet = new Set(c.added);
  for (const p of c.modified) taken.add(p);
  const entry = { manager, operation, apiVersion, ...(subresource ? { subresource } : {}) };
  const id = managerId(entry);
  for (const [k, m] of managers) {
    if (k === id) continue;
    // Sets are replaced only when a path actually leaves them (the filter keeps order either way).
    if (!holdsAny(m.set, taken) && !holdsAny(m.set, c.removed)) {
      m.touched = false;
      continue;
    }
    const before = m.set.size;
    const kept: FieldSet = new Set();
    for (const p of m.set) if (!taken.has(p) && !c.removed.has(p)) kept.add(p);
    m.set = kept;
    m.touched = m.set.size !== before;
  }
  const own = managers.get(id) ?? { entry: { ...entry }, set: new Set<string>(), touched: true };
  const set: FieldSet = new Set();
  for (const p of own.set) if (!c.removed.has(p)) set.add(p);
  for (const p of taken) if (!c.removed.has(p)) set.add(p);
  if (set.size !== own.set.size || taken.size > 0) own.entry = { ...entry, time: formatTime(now) };
  own.set = set;
  managers.set(id, own);
  return withManagedFields(newObj, encodeManagedFields(managers));
}
