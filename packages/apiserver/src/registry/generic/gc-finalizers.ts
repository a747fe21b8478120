/**
 * The garbage-collection half of the generic store's delete path
 * (k8s.io/apiserver/pkg/registry/generic/registry/store.go `deletionFinalizersForGarbageCollection`,
 * `shouldOrphanDependents`, `shouldDeleteDependents`, `markAsDeleting`): which of the `orphan` and
 * `foregroundDeletion` finalizers a DELETE puts on the object, from its DeleteOptions, the object's
 * own finalizers and the resource's default policy.
 */
import { finalizerDeleteDependents, finalizerOrphanDependents } from "@servicenet/api";
import type { KubeObject } from "../../storage/index.ts";
import { nowRFC3339 } from "./names.ts";

/**
 * rest.GarbageCollectionPolicy: what a DELETE without options does to dependents. Every served
 * kind has upstream's default (DeleteDependents, i.e. background); only old workload versions
 * orphan, and `Unsupported` turns the garbage-collector finalizers off for a resource.
 */
export type GarbageCollectionPolicy = "DeleteDependents" | "OrphanDependents" | "Unsupported";

/** The DeleteOptions fields these decisions read. */
export interface GCDeleteOptions {
  orphanDependents?: boolean | undefined;
  propagationPolicy?: string | undefined;
}

function finalizersOf(meta: KubeObject["metadata"]): string[] {
  return (meta["finalizers"] as string[] | undefined) ?? [];
}

/** `shouldOrphanDependents`: an explicit option wins, then the object's finalizers, then the default. */
export function shouldOrphanDependents(policy: GarbageCollectionPolicy, meta: KubeObject["metadata"], o: GCDeleteOptions): boolean {
  if (policy === "Unsupported") return false;
  if (o.orphanDependents !== undefined) return o.orphanDependents;
  if (o.propagationPolicy === "Orphan") return true;
  if (o.propagationPolicy === "Background" || o.propagationPolicy === "Foreground") return false;
  for (const f of finalizersOf(meta)) {
    if (f === finalizerOrphanDependents) return true;
    if (f === finalizerDeleteDependents) return false;
  }
  return policy === "OrphanDependents";
}

/** `shouldDeleteDependents`: foreground only when asked for, or already chosen by the finalizer. */
export function shouldDeleteDependents(policy: GarbageCollectionPolicy, meta: KubeObject["metadata"], o: GCDeleteOptions): boolean {
  if (policy === "Unsupported") return false;
  if (o.orphanDependents !== undefined) return false;
  if (o.propagationPolicy === "Foreground") return true;
  if (o.propagationPolicy === "Background" || o.propagationPolicy === "Orphan") return false;
  for (const f of finalizersOf(meta)) {
    if (f === finalizerDeleteDependents) return true;
    if (f === finalizerOrphanDependents) return false;
  }
  return false;
}

/**
 * `deletionFinalizersForGarbageCollection`: the object's finalizers with `orphan` and
 * `foregroundDeletion` set as the options decide; `changed` is false when the set is the same.
 */
export function deletionFinalizersForGarbageCollection(
  policy: GarbageCollectionPolicy,
  meta: KubeObject["metadata"],
  o: GCDeleteOptions,
): { changed: boolean; finalizers: string[] } {
  const old = finalizersOf(meta);
  const next = old.filter((f) => f !== finalizerOrphanDependents && f !== finalizerDeleteDependents);
  if (shouldOrphanDependents(policy, meta, o)) next.push(finalizerOrphanDependents);
  if (shouldDeleteDependents(policy, meta, o)) next.push(finalizerDeleteDependents);
  const a = new Set(old);
  const b = new Set(next);
  const same = a.size === b.size && [...a].every((f) => b.has(f));
  return same ? { changed: false, finalizers: old } : { changed: true, finalizers: next };
}

/**
 * `markAsDeleting`: deletionTimestamp now unless one is set already (and not in the future),
 * deletionGracePeriodSeconds 0, and generation + 1 on the first mark (kinds without graceful deletion).
 */
export function markAsDeleting(obj: KubeObject, now = nowRFC3339()): void {
  const meta = obj.metadata;
  const existing = meta.deletionTimestamp;
  if (existing === undefined && typeof meta.generation === "number" && meta.generation > 0) meta.generation += 1;
  if (existing === undefined || Date.parse(existing) > Date.parse(now)) meta.deletionTimestamp = now;
  meta["deletionGracePeriodSeconds"] = 0;
}
