/**
 * The order of managedFields entries: upstream's managedfields encoding sorts them by operation,
 * then time, manager, apiVersion and subresource (k8s.io/apimachinery/pkg/util/managedfields/
 * internal/managedfields.go, sortEncodedManagedFields).
 */
import type { ManagedFieldsEntry } from "./managed-fields-entry.ts";

const cmp = (a: string | undefined, b: string | undefined): number => ((a ?? "") < (b ?? "") ? -1 : (a ?? "") > (b ?? "") ? 1 : 0);

/** Sorts `entries` in place as sortEncodedManagedFields does; returns them. */
export function sortManagedFieldsEntries(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  return entries.sort(
    (a, b) =>
      cmp(a.operation, b.operation) ||
      cmp(a.time, b.time) ||
      cmp(a.manager, b.manager) ||
      cmp(a.apiVersion, b.apiVersion) ||
      cmp(a.subresource, b.subresource),
  );
}
