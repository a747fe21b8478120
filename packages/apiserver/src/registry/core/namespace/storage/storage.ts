/**
 * The namespace REST storage (pkg/registry/core/namespace/storage/storage.go): the generic store
 * plus the namespace's life-cycle rules. The first DELETE only marks the namespace (deletionTimestamp
 * and phase Terminating; the namespace controller empties it and removes its `kubernetes` finalizer
 * through PUT .../finalize). A namespace goes once spec.finalizers and metadata.finalizers are both
 * empty: on a later DELETE, or on the update that empties them (ShouldDeleteNamespaceDuringUpdate).
 */
import { finalizerDeleteDependents, finalizerOrphanDependents, namespacePhases, StatusError, type Namespace } from "@servicenet/api";
import { objectKey, withGroupResource, type KubeObject, type Store } from "../../../../storage/index.ts";
import { nowRFC3339 } from "../../../generic/names.ts";
import type { DeleteParams, DeleteResult } from "../../../generic/options.ts";
import { GenericStore, type GenericStoreConfig } from "../../../generic/store.ts";

const specFinalizers = (o: KubeObject): readonly string[] => (o as Namespace).spec?.finalizers ?? [];
const metaFinalizers = (o: KubeObject): readonly string[] => (o.metadata["finalizers"] as string[] | undefined) ?? [];

/**
 * upstream ShouldDeleteNamespaceDuringUpdate: the generic rule (no metadata.finalizers left on a
 * deleting object) and no spec.finalizers either.
 */
export function shouldDeleteNamespaceDuringUpdate(obj: KubeObject): boolean {
  return specFinalizers(obj).length === 0;
}

/** upstream shouldHaveOrphanFinalizer (DeleteOptions.orphanDependents is not parsed here; propagationPolicy is). */
function shouldHaveOrphanFinalizer(p: DeleteParams, have: boolean): boolean {
  return p.propagationPolicy !== undefined ? p.propagationPolicy === "Orphan" : have;
}

/** upstream shouldHaveDeleteDependentsFinalizer. */
function shouldHaveDeleteDependentsFinalizer(p: DeleteParams, have: boolean): boolean {
  return p.propagationPolicy !== undefined ? p.propagationPolicy === "Foreground" : have;
}

/** The namespace's metadata.finalizers after a first DELETE with `p` (orphan / foregroundDeletion as asked). */
function finalizersForDelete(current: readonly string[], p: DeleteParams): string[] | undefined {
  const set = new Set(current);
  const want: [string, boolean][] = [
    [finalizerOrphanDependents, shouldHaveOrphanFinalizer(p, set.has(finalizerOrphanDependents))],
    [finalizerDeleteDependents, shouldHaveDeleteDependentsFinalizer(p, set.has(finalizerDeleteDependents))],
  ];
  let changed = false;
  for (const [f, should] of want) {
    if (set.has(f) !== should) changed = true;
    if (should) set.add(f);
    else set.delete(f);
  }
  return changed ? [...set] : undefined;
}

/** The admission checks a namespace DELETE goes through first (NamespaceLifecycle's immortal namespaces). */
export interface NamespaceDeleteAdmission {
  admitDelete(name: string): void;
}

/** Namespaces' REST storage: GenericStore with upstream's namespace Delete. */
export class NamespaceREST extends GenericStore {
  private readonly storage: Store;
  private readonly admission: NamespaceDeleteAdmission | undefined;

  constructor(store: Store, config: GenericStoreConfig, admission?: NamespaceDeleteAdmission) {
    super(store, { ...config, shouldDeleteDuringUpdate: shouldDeleteNamespaceDuringUpdate });
    this.storage = withGroupResource(store, { group: config.group, resource: config.resource });
    this.admission = admission;
  }

  /**
   * upstream REST.Delete: admission, then the preconditions against the stored namespace (uid
   * always); the first request marks it terminating (finalizers or not); a later one deletes it
   * only once spec.finalizers is empty (the generic delete then honours metadata.finalizers).
   */
  override async delete(_namespace: string | undefined, name: string, p: DeleteParams = {}): Promise<DeleteResult> {
    this.admission?.admitDelete(name);
    const current = await this.get(undefined, name);
    await p.deleteValidation?.(current);
    const preconditions = checkPreconditions(current, p);
    if (current.metadata.deletionTimestamp === undefined || current.metadata.deletionTimestamp === null) {
      const marked = await this.storage.guaranteedUpdate(
        objectKey(this.config.storagePath, undefined, name),
        (cur) => markTerminating(cur, p),
        { preconditions, ...(p.dryRun ? { dryRun: true } : {}), cachedExisting: current },
      );
      return { object: marked, deleted: false };
    }
    // Prior to final deletion, the namespace controller (and anyone else listed) must have finalized it.
    if (specFinalizers(current).length !== 0) return { object: current, deleted: false };
    return super.delete(undefined, name, { ...p, preconditions, deleteValidation: undefined });
  }
}

/** The first DELETE's change: deletionTimestamp, phase Terminating, orphan/foreground finalizers as asked. */
function markTerminating(cur: KubeObject, p: DeleteParams): KubeObject {
  const next = structuredClone(cur);
  next.metadata.deletionTimestamp ??= nowRFC3339();
  next["status"] = { ...((next["status"] ?? {}) as Record<string, unknown>), phase: namespacePhases.Terminating };
  const finalizers = finalizersForDelete(metaFinalizers(next), p);
  if (finalizers !== undefined) next.metadata["finalizers"] = finalizers;
  return next;
}

/** upstream's explicit precondition checks (409 with its messages); the uid precondition is always set. */
function checkPreconditions(current: KubeObject, p: DeleteParams): { uid: string; resourceVersion?: string } {
  const uid = current.metadata.uid ?? "";
  const name = current.metadata.name ?? "";
  const gr = { group: "", resource: "namespaces" };
  const want = p.preconditions?.uid;
  if (want !== undefined && want !== uid)
    throw StatusError.conflict(gr, name, `Precondition failed: UID in precondition: ${want}, UID in object meta: ${uid}`);
  const rv = p.preconditions?.resourceVersion;
  const have = current.metadata.resourceVersion ?? "";
  if (rv !== undefined && rv !== have)
    throw StatusError.conflict(
      gr,
      name,
      `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${have}`,
    );
  return { uid, ...(rv !== undefined ? { resourceVersion: rv } : {}) };
}
