/**
 * The common Update that moves no field between managers: every field it adds or changes is one
 * its manager already owns and no other manager does, and it removes nothing (a kubelet renewing
 * its Node's Lease, a kubelet writing its Pod's status). Upstream's FieldManager computes the same
 * result by the same set algebra (k8s.io/apimachinery/pkg/util/managedfields/internal/
 * structuredmerge.go Update, managedfieldsupdater.go): each field set stays as it was and only the
 * manager's time moves. Here that is found from the FieldsV1 trees themselves, looking up only the
 * changed paths, so the entries are neither decoded into path sets nor filtered back into trees.
 * Anything else (a field changing hands, a removal, client-written managedFields) is left to the
 * set-based path, which gives the same answer for these cases too (managed-fields-owned.test.ts).
 */
import { deepEqual, isObject, type JSONObject, type JSONValue } from "./json-value.ts";
import type { FieldSchema } from "./field-schema.ts";
import { keyPath } from "./fieldpath-path.ts";
import { normalizeFieldsV1 } from "./fieldpath-serialize.ts";
import {
  compareObjects,
  formatTime,
  managerId,
  withManagedFields,
  type Comparison,
  type ManagedFieldsEntry,
} from "./managed-fields-entry.ts";
import { sortManagedFieldsEntries } from "./managed-fields-order.ts";

/** True when path `key` (JSON of its elements) is a member of the set FieldsV1 `tree` encodes (as fromFieldsV1 decodes it). */
export function fieldsV1Has(tree: JSONValue | undefined, key: string): boolean {
  const path = keyPath(key);
  if (path.length === 0) return false;
  let node: JSONValue | undefined = tree;
  for (const el of path) {
    if (!isObject(node) || !Object.hasOwn(node, el)) return false;
    node = node[el];
  }
  return isObject(node) && (Object.keys(node).length === 0 || Object.hasOwn(node, "."));
}

/** One stored entry: its identity, the fields besides its FieldsV1, and the tree. */
interface RawEntry {
  id: string;
  entry: Omit<ManagedFieldsEntry, "fieldsV1" | "fieldsType">;
  fieldsV1: JSONValue | undefined;
}

/** The stored entries when each is an object of a distinct manager, else undefined. */
function rawEntries(list: JSONValue[]): RawEntry[] | undefined {
  const out: RawEntry[] = [];
  const ids = new Set<string>();
  for (const raw of list) {
    if (!isObject(raw)) return undefined;
    const { fieldsV1, fieldsType: _t, ...entry } = raw as unknown as ManagedFieldsEntry;
    const id = managerId(entry);
    if (ids.has(id)) return undefined;
    ids.add(id);
    out.push({ id, entry, fieldsV1 });
  }
  return out;
}

/**
 * updateManagedFields for an update of `oldObj` into `newObj` by `manager` that changes only
 * fields that manager alone owns; undefined when the update is not of that kind (the caller then
 * takes the set-based path). `newObj` keeps the stored managedFields or sends them unchanged.
 * `comparison`: compareObjects of the two, when the caller has it.
 */
export function updateOwnedFields(
  oldObj: JSONValue,
  newObj: JSONObject,
  manager: string,
  operation: "Update" | "Apply",
  apiVersion: string,
  now: Date,
  subresource?: string,
  schema?: FieldSchema,
  comparison?: Comparison,
): JSONObject | undefined {
  const oldList = isObject(oldObj) && isObject(oldObj.metadata) ? oldObj.metadata.managedFields : undefined;
  const newList = isObject(newObj.metadata) ? newObj.metadata.managedFields : undefined;
  if (!Array.isArray(oldList) || oldList.length === 0) return undefined;
  if (Array.isArray(newList) && !deepEqual(oldList, newList)) return undefined;
  const entries = rawEntries(oldList);
  if (entries === undefined) return undefined;
  const c = comparison ?? compareObjects(typeof newObj.kind === "string" ? newObj.kind : "", oldObj, newObj, subresource, schema);
  if (c.removed.size > 0) return undefined;
  const entry = { manager, operation, apiVersion, ...(subresource ? { subresource } : {}) };
  const id = managerId(entry);
  const own = entries.find((e) => e.id === id);
  const taken = [...c.added, ...c.modified];
  for (const p of taken) {
    if (own === undefined || !fieldsV1Has(own.fieldsV1, p)) return undefined;
    for (const e of entries) if (e !== own && fieldsV1Has(e.fieldsV1, p)) return undefined;
  }
  const out: ManagedFieldsEntry[] = [];
  for (const e of entries) {
    const fieldsV1 = normalizeFieldsV1(e.fieldsV1);
    // An entry whose set is empty is dropped, as encodeManagedFields drops it.
    if (Object.keys(fieldsV1).length === 0) continue;
    const head = e === own && taken.length > 0 ? { ...entry, time: formatTime(now) } : e.entry;
    out.push({ ...head, fieldsType: "FieldsV1", fieldsV1 });
  }
  return withManagedFields(newObj, sortManagedFieldsEntries(out));
}
