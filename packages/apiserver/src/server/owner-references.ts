/**
 * Owner references deduplicated by the write handlers, as k8s.io/apiserver/pkg/endpoints/handlers/rest.go
 * (dedupOwnerReferences, dedupOwnerReferencesAndAddWarning): create and update dedup before and
 * after mutating admission, patch only after; each time duplicates are found the client is warned.
 */
import type { OwnerReference } from "@servicenet/api/meta/v1";
import type { KubeObject } from "../storage/index.ts";
import { deepEqual } from "./patch/json-value.ts";

/** handlers.DuplicateOwnerReferencesWarningFormat. */
const beforeAdmission =
  ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ";
/** handlers.DuplicateOwnerReferencesAfterMutatingAdmissionWarningFormat. */
const afterAdmission =
  ".metadata.ownerReferences contains duplicate entries after mutating admission happens; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ";

/**
 * dedupOwnerReferences: an entry is dropped when an equal one (every field, not only the uid) came
 * before it; returns the kept entries and the uids of the dropped ones, in order.
 */
export function dedupOwnerReferences(refs: readonly OwnerReference[]): { kept: OwnerReference[]; duplicates: string[] } {
  const kept: OwnerReference[] = [];
  const duplicates: string[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    // Only a uid seen before needs the full comparison.
    if (!seen.has(ref.uid) || !kept.some((k) => deepEqual(k, ref))) {
      seen.add(ref.uid);
      kept.push(ref);
    } else {
      duplicates.push(ref.uid);
    }
  }
  return { kept, duplicates };
}

/** dedupOwnerReferencesAndAddWarning: dedups `obj`'s owner references in place and warns about the duplicates. */
export function dedupOwnerReferencesAndAddWarning(obj: KubeObject, warnings: string[], afterMutatingAdmission: boolean): void {
  const refs = obj.metadata.ownerReferences as OwnerReference[] | undefined;
  if (!Array.isArray(refs) || refs.length < 2) return;
  const { kept, duplicates } = dedupOwnerReferences(refs);
  if (duplicates.length === 0) return;
  const w = (afterMutatingAdmission ? afterAdmission : beforeAdmission) + duplicates.join(", ");
  if (!warnings.includes(w)) warnings.push(w);
  obj.metadata.ownerReferences = kept;
}
