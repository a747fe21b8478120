/**
 * Server-side apply (`application/apply-patch+yaml`) after
 * sigs.k8s.io/structured-merge-diff's Updater.Apply: merge the applied
 * configuration, prune what this manager applied last time and no longer
 * applies (unless someone else owns it), detect conflicts with other
 * managers' fields, and record the manager's new field set.
 */
import { field, StatusError, type StatusCause } from "@servicenet/api";
import { dropUnsafeKeys, isObject, type JSONObject, type JSONValue } from "./json-value.ts";
import { resetFilter, toFieldSet } from "./fieldpath.ts";
import { keyPath, pathString } from "./fieldpath-path.ts";
import { mergeApplied, removePaths } from "./apply-merge.ts";
import type { FieldSchema } from "./field-schema.ts";
import {
  compareObjects,
  decodeManagedFields,
  encodeManagedFields,
  formatTime,
  managerId,
  withManagedFields,
  type ManagedFieldsEntry,
  type ManagerState,
} from "./managed-fields.ts";

export interface ApplyOptions {
  fieldManager: string;
  force?: boolean;
  now: Date;
  /** Set for apply to a subresource (`status`); recorded in the entry. */
  subresource?: string;
  /** The object is unstructured (a custom resource): see RemoveOptions. */
  unstructured?: boolean;
  /** A custom resource's schema, whose undeclared fields are members (field-schema.ts). */
  schema?: FieldSchema;
}

export interface ApplyResult {
  object: JSONObject;
  managedFields: ManagedFieldsEntry[];
}

/** `"kubectl" using v1` for Update managers, `"kubectl"` for appliers (upstream printManager). */
function printManager(m: ManagerState): string {
  const name = JSON.stringify(m.entry.manager);
  return m.entry.operation === "Update" ? `${name} using ${m.entry.apiVersion}` : name;
}

function conflictError(conflicts: { manager: ManagerState; path: string }[]): StatusError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: "FieldManagerConflict",
    message: `conflict with ${printManager(c.manager)}`,
    field: c.path,
  }));
  let message: string;
  if (conflicts.length === 1) {
    const c = conflicts[0] as { manager: ManagerState; path: string };
    message = `Apply failed with 1 conflict: conflict with ${printManager(c.manager)}: ${c.path}`;
  } else {
    const byManager = new Map<string, { m: ManagerState; paths: string[] }>();
    for (const c of conflicts) {
      const g = byManager.get(c.manager.entry.manager) ?? { m: c.manager, paths: [] };
      g.paths.push(c.path);
      byManager.set(c.manager.entry.manager, g);
    }
    const lines = [...byManager.keys()].sort().flatMap((k) => {
      const g = byManager.get(k) as { m: ManagerState; paths: string[] };
      return [`conflicts with ${printManager(g.m)}:`, ...g.paths.map((p) => `- ${p}`)];
    });
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join("\n")}`;
  }
  return new StatusError("Conflict", message, { causes });
}

function checkApplied(applied: unknown, fieldManager: string): asserts applied is JSONObject {
  if (fieldManager === "") {
    throw StatusError.invalid({ group: "meta.k8s.io", kind: "PatchOptions" }, "", [
      field.required("fieldManager", "is required for apply patch"),
    ]);
  }
  if (!isObject(applied)) throw StatusError.badRequest("error decoding YAML: the applied configuration is not an object");
  const meta = applied.metadata;
  if (isObject(meta) && meta.managedFields !== undefined && meta.managedFields !== null) {
    throw StatusError.badRequest("metadata.managedFields must be nil");
  }
}

/**
 * What this manager owned before and no longer applies, minus anything still
 * kept (applied or owned by others) and minus ancestors of kept paths: an
 * Update entry marks `f:ports` itself as a member, but removing it would take
 * the applied items with it (upstream's EnsureNamedFieldsAreMembers has the same effect).
 */
function prunable(lastSet: Set<string>, keep: readonly Set<string>[]): string[] {
  const candidates = [...lastSet].filter((p) => !keep.some((s) => s.has(p)));
  // The kept paths' ancestors only when something may go (they cost a parse of every kept path).
  if (candidates.length === 0) return candidates;
  const ancestors = new Set<string>();
  for (const s of keep)
    for (const k of s) {
      const p = keyPath(k);
      for (let i = 1; i < p.length; i++) ancestors.add(JSON.stringify(p.slice(0, i)));
    }
  return candidates.filter((p) => !ancestors.has(p));
}

/**
 * Applies `applied` for `fieldManager` to `current` (undefined: the object is
 * being created). Throws 409 Conflict with upstream's message unless `force`.
 */
export function applyServerSideApply(current: JSONObject | undefined, applied: unknown, opts: ApplyOptions): ApplyResult {
  applied = dropUnsafeKeys(applied);
  checkApplied(applied, opts.fieldManager);
  const kind = [applied.kind, current?.kind].find((v): v is string => typeof v === "string") ?? "";
  const apiVersion = [applied.apiVersion, current?.apiVersion].find((v): v is string => typeof v === "string") ?? "";
  const managers = decodeManagedFields(current);
  const entry = {
    manager: opts.fieldManager,
    operation: "Apply" as const,
    apiVersion,
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
  };
  const id = managerId(entry);
  const configSet = new Set([...toFieldSet(kind, applied, opts.schema)].filter(resetFilter(opts.subresource)));
  const lastSet = managers.get(id)?.set ?? new Set<string>();

  const merged = mergeApplied(kind, current, applied) as JSONObject;
  const others = [...managers].filter(([k]) => k !== id).map(([, m]) => m.set);
  removePaths(kind, merged, prunable(lastSet, [configSet, ...others]), { unstructured: opts.unstructured === true, applied });

  const c = compareObjects(kind, current, merged, opts.subresource, opts.schema);
  const changed = new Set([...c.added, ...c.modified]);
  const conflicts: { manager: ManagerState; path: string; key: string }[] = [];
  // Per manager, its changed paths in order: a walk of what changed, not of every path it holds.
  const lost = new Map<ManagerState, Set<string>>();
  for (const [k, m] of managers) {
    if (k === id) continue;
    const held = [...changed].filter((p) => m.set.has(p)).sort();
    for (const p of held) conflicts.push({ manager: m, path: pathString(keyPath(p)), key: p });
    if (held.length > 0) lost.set(m, new Set(held));
  }
  if (conflicts.length > 0 && opts.force !== true) throw conflictError(conflicts);

  for (const [k, m] of managers) {
    if (k === id) continue;
    const taken = lost.get(m);
    // A set nothing leaves stays the one decoded, which encodes without parsing its paths.
    if (taken === undefined && ![...c.removed].some((p) => m.set.has(p))) continue;
    m.set = new Set([...m.set].filter((p) => !c.removed.has(p) && !taken?.has(p)));
  }
  const prev = managers.get(id);
  const setChanged = prev === undefined || prev.set.size !== configSet.size || [...configSet].some((p) => !prev.set.has(p));
  const time =
    setChanged || changed.size > 0 || c.removed.size > 0 || prev?.entry.time === undefined ? formatTime(opts.now) : prev.entry.time;
  managers.set(id, { entry: { ...entry, time }, set: configSet, touched: true });
  const managedFields = encodeManagedFields(managers);
  return { object: withManagedFields(merged, managedFields), managedFields };
}

export type { JSONValue };
