/**
 * `ReplicaSetControllerRefManager.ClaimReplicaSets` of pkg/controller/controller_ref_manager.go,
 * with `BaseControllerRefManager.ClaimObject`'s rules: keep what the controller owns and its
 * selector still matches, release what it owns and no longer matches, adopt matching orphans
 * (after `canAdopt`, asked once per claim, has re-read the owner), ignore what others own.
 */
import type { OwnerReference, ReplicaSet } from "@servicenet/api";
import { isNotFound, isInvalid } from "@servicenet/client/errors";

/** The owner as the claim sees it. */
export interface ClaimOwner {
  apiVersion: string;
  kind: string;
  metadata: {
    name?: string | undefined;
    namespace?: string | undefined;
    uid?: string | undefined;
    deletionTimestamp?: string | null | undefined;
  };
}

/** `RSControlInterface.PatchReplicaSet`: a strategic-merge patch of one ReplicaSet. */
export type PatchReplicaSet = (namespace: string, name: string, patch: Record<string, unknown>) => Promise<unknown>;

/** `metav1.GetControllerOf`. */
export function getControllerOf(obj: { metadata: { ownerReferences?: OwnerReference[] | undefined } }): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** `metav1.NewControllerRef`. */
export function newControllerRef(owner: ClaimOwner): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name ?? "",
    uid: owner.metadata.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * `RecheckDeletionTimestamp`: a canAdopt that fails when the freshly read owner is being deleted.
 * @param getFresh reads the owner from the API (and checks it is the same UID).
 */
export function recheckDeletionTimestamp(getFresh: () => Promise<ClaimOwner>): () => Promise<void> {
  return async () => {
    const fresh = await getFresh();
    const ts = fresh.metadata.deletionTimestamp;
    if (ts !== undefined && ts !== null)
      throw new Error(`${fresh.metadata.namespace ?? ""}/${fresh.metadata.name ?? ""} has just been deleted at ${ts}`);
  };
}

export interface ReplicaSetClaimDeps {
  owner: ClaimOwner;
  selector: (labels: Readonly<Record<string, string>> | undefined) => boolean;
  patch: PatchReplicaSet;
  canAdopt: () => Promise<void>;
}

/** `ClaimReplicaSets`: the ReplicaSets the owner keeps after adopting and releasing; errors aggregated. */
export async function claimReplicaSets(d: ReplicaSetClaimDeps, sets: readonly ReplicaSet[]): Promise<ReplicaSet[]> {
  const claimed: ReplicaSet[] = [];
  const errors: string[] = [];
  let adoptable: Promise<void> | undefined;
  const canAdopt = () => (adoptable ??= d.canAdopt());
  const ownerUID = d.owner.metadata.uid;
  const ownerDeleting = d.owner.metadata.deletionTimestamp !== undefined && d.owner.metadata.deletionTimestamp !== null;
  for (const rs of sets) {
    try {
      if (await claimOne(rs)) claimed.push(rs);
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`);
  return claimed;

  async function claimOne(rs: ReplicaSet): Promise<boolean> {
    const ref = getControllerOf(rs);
    const ns = rs.metadata.namespace ?? "";
    const name = rs.metadata.name ?? "";
    if (ref !== undefined) {
      if (ref.uid !== ownerUID) return false;
      if (d.selector(rs.metadata.labels)) return true;
      if (ownerDeleting) return false;
      // Release: drop our owner reference; a ReplicaSet that is gone or invalid needs nothing.
      try {
        await d.patch(ns, name, { metadata: { ownerReferences: [{ $patch: "delete", uid: ownerUID }], uid: rs.metadata.uid } });
      } catch (err) {
        if (!isNotFound(err) && !isInvalid(err)) throw err;
      }
      return false;
    }
    if (ownerDeleting || !d.selector(rs.metadata.labels)) return false;
    if (rs.metadata.deletionTimestamp !== undefined && rs.metadata.deletionTimestamp !== null) return false;
    if ((d.owner.metadata.namespace ?? "") !== "" && d.owner.metadata.namespace !== ns) return false;
    try {
      await canAdopt().catch((err: unknown) => {
        throw new Error(
          `can't adopt ReplicaSet ${ns}/${name} (${rs.metadata.uid ?? ""}): ${err instanceof Error ? err.message : String(err)}`,
        );
      });
      await d.patch(ns, name, { metadata: { ownerReferences: [newControllerRef(d.owner)], uid: rs.metadata.uid } });
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
    return true;
  }
}
