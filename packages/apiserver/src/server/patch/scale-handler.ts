/**
 * The managedFields of a scale subresource (k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager/
 * scalehandler.go ScaleHandler): the parent's entries owning its replicas field become Scale
 * entries owning `spec.replicas` for the field manager of the scale request, and what that request
 * leaves is mapped back onto the parent's entries. Deployments, ReplicaSets and custom resources
 * share it.
 */
import type { JSONValue } from "./json-value.ts";
import { decodeManagedFields, encodeManagedFields, type ManagedFieldsEntry, type ManagerState } from "./managed-fields.ts";
import { pathKey, type FieldSet } from "./fieldpath-path.ts";

/**
 * ResourcePathMappings: each apiVersion of the parent to the field names of its replicas field
 * (`["spec", "replicas"]`); null for a version without a scale subresource.
 */
export type ResourcePathMappings = ReadonlyMap<string, readonly string[] | null>;

const scaleGroupVersion = "autoscaling/v1";
const replicasInScale = pathKey(["f:spec", "f:replicas"]);

const setKey = (fields: readonly string[]): string => pathKey(fields.map((f) => `f:${f}`));

function decoded(entries: JSONValue | undefined): Map<string, ManagerState> {
  return decodeManagedFields({ metadata: { managedFields: entries ?? [] } });
}

function state(entry: ManagerState["entry"], set: FieldSet): ManagerState {
  return { entry, set, touched: true };
}

/** ToSubresource: the parent's entries owning their version's replicas path, as Scale entries. */
export function scaleEntriesFromParent(parentEntries: JSONValue | undefined, mappings: ResourcePathMappings): ManagedFieldsEntry[] {
  const out = new Map<string, ManagerState>();
  for (const [id, m] of decoded(parentEntries)) {
    const path = mappings.get(m.entry.apiVersion);
    // An entry of an unknown version is skipped.
    if (path === undefined || path === null || !m.set.has(setKey(path))) continue;
    out.set(id, state({ ...m.entry, apiVersion: scaleGroupVersion }, new Set([replicasInScale])));
  }
  return encodeManagedFields(out);
}

/**
 * ToParent: the parent's entries with the replicas path taken from the managers that lost it in
 * the scale request, and the scale's new owners of `spec.replicas` as entries of `groupVersion`
 * (the request's version of the parent) owning its replicas path.
 */
export function parentEntriesFromScale(
  parentEntries: JSONValue | undefined,
  scaleEntries: JSONValue | undefined,
  mappings: ResourcePathMappings,
  groupVersion: string,
): ManagedFieldsEntry[] {
  const parent = decoded(parentEntries);
  const scale = decoded(scaleEntries);
  const out = new Map<string, ManagerState>();
  for (const [id, m] of parent) {
    const path = mappings.get(m.entry.apiVersion);
    // An entry of an unknown version is dropped.
    if (path === undefined) continue;
    const key = path === null ? undefined : setKey(path);
    if (key === undefined || !m.set.has(key)) {
      out.set(id, m);
      continue;
    }
    // Keyed by manager identity, as fieldpath.ManagedFields is: an applier's is its name, an
    // updater's includes its apiVersion, so an updater of the parent is never one of the Scale's.
    if (!scale.has(id)) {
      // "Steal" the replicas path from the parent's entry.
      const rest = new Set([...m.set].filter((p) => p !== key));
      if (rest.size > 0) out.set(id, state(m.entry, rest));
    } else {
      // The field was not stolen: the entry stays as it is.
      out.set(id, m);
      scale.delete(id);
    }
  }
  const replicas = mappings.get(groupVersion);
  for (const [id, m] of scale) {
    if (!m.set.has(replicasInScale) || replicas === undefined || replicas === null) continue;
    // A scale-only manager has no time in the parent's entries (upstream reads it from there).
    const { time: _time, ...entry } = m.entry;
    out.set(id, state({ ...entry, apiVersion: groupVersion }, new Set([setKey(replicas)])));
  }
  return encodeManagedFields(out);
}
