/** pkg/registry/rbac/helpers.go. */
import { semanticEqual } from "@servicenet/api";
import type { KubeObject } from "../../storage/index.ts";

/**
 * IsOnlyMutatingGCFields: the update changes nothing but owner references, finalizers and
 * managed fields (what the garbage collector touches), so it needs no escalation check.
 */
export function isOnlyMutatingGCFields(obj: KubeObject, old: KubeObject | null): boolean {
  if (old === null) return false;
  const copied = structuredClone(obj);
  for (const k of ["ownerReferences", "finalizers", "selfLink", "managedFields"] as const) {
    const v = old.metadata[k];
    if (v === undefined) delete copied.metadata[k];
    else (copied.metadata as Record<string, unknown>)[k] = structuredClone(v);
  }
  return semanticEqual(copied, old);
}
