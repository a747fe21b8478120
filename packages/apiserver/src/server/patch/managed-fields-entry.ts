/**
 * The pieces of managedFields bookkeeping that its fast and general paths share
 * (k8s.io/apimachinery/pkg/util/managedfields): the entry, the manager identity, the time format,
 * the comparison of two objects, and writing entries back into an object.
 */
import { formatRFC3339 } from "../../util/time/rfc3339.ts";
import { deepEqual, isObject, type JSONObject, type JSONValue } from "./json-value.ts";
import { nodeValues, resetField } from "./fieldpath.ts";
import type { FieldSchema } from "./field-schema.ts";
import type { FieldSet } from "./fieldpath-path.ts";

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

/** Upstream's BuildManagerIdentifier: time and fields never count, apiVersion not for appliers. */
export function managerId(e: Pick<ManagedFieldsEntry, "manager" | "operation" | "apiVersion" | "subresource">): string {
  return JSON.stringify([e.manager, e.operation, e.operation === "Apply" ? "" : e.apiVersion, e.subresource ?? ""]);
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function formatTime(now: Date): string {
  return formatRFC3339(now);
}

/** What changed between two objects, as paths (structured-merge-diff's Comparison). */
export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/** Compares `oldObj` with `newObj`; top-level struct fields (metadata, spec, status) are never "added" since Go always has them. */
export function compareObjects(
  kind: string,
  oldObj: JSONValue | undefined,
  newObj: JSONValue,
  subresource?: string,
  schema?: FieldSchema,
): Comparison {
  // The reset field (resetFilter) is left out of both walks rather than filtered afterwards, and so
  // is every subtree equal in both (it can add, modify or remove nothing): a change of one annotation
  // of a 60,000-label object then builds a handful of paths, not 120,000.
  const skip = resetField(subresource);
  const twinEqual = new Map<string, boolean>();
  const before = nodeValues(kind, oldObj, skip, newObj, twinEqual, schema);
  const after = nodeValues(kind, newObj, skip, oldObj, twinEqual, schema);
  const c: Comparison = { added: new Set(), modified: new Set(), removed: new Set() };
  for (const [k, n] of after) {
    const o = before.get(k);
    if (o === undefined) {
      if (n.member || n.depth > 1) c.added.add(k);
    } else if (n.leaf && !deepEqual(o.value, n.value)) {
      c.modified.add(k);
    }
  }
  for (const k of before.keys()) if (!after.has(k)) c.removed.add(k);
  return c;
}

/** `obj` with `entries` as its `metadata.managedFields` (none: the field is dropped). */
export function withManagedFields(obj: JSONObject, entries: ManagedFieldsEntry[]): JSONObject {
  const metadata = isObject(obj.metadata) ? { ...obj.metadata } : {};
  if (entries.length > 0) metadata.managedFields = entries as unknown as JSONValue;
  else delete metadata.managedFields;
  return { ...obj, metadata };
}
