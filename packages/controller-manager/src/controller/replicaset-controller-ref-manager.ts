/**
 * `ReplicaSetControllerRefManager.ClaimReplicaSets` of pkg/controller/controller_ref_manager.go:
 * `BaseControllerRefManager.ClaimObject`'s rules (controller-ref-manager.ts) over ReplicaSets, with
 * `canAdopt` asked once per claim.
 */
import type { ReplicaSet } from "@servicenet/api";
import { isInvalid, isNotFound } from "@servicenet/client/errors";
import { claimObjects, deleteOwnerRefPatch, ownerRefControllerPatch } from "./controller-ref-manager.ts";
import type { ControllerObject } from "./pod-control.ts";

/** `RSControlInterface.PatchReplicaSet`: a strategic-merge patch of one ReplicaSet. */
export type PatchReplicaSet = (namespace: string, name: string, patch: Record<string, unknown>) => Promise<unknown>;

export interface ReplicaSetClaimDeps {
  owner: ControllerObject;
  selector: (labels: Readonly<Record<string, string>> | undefined) => boolean;
  patch: PatchReplicaSet;
  canAdopt: () => Promise<void>;
}

/** `ClaimReplicaSets`: the ReplicaSets the owner keeps after adopting and releasing; errors aggregated. */
export function claimReplicaSets(d: ReplicaSetClaimDeps, sets: readonly ReplicaSet[]): Promise<ReplicaSet[]> {
  let adoptable: Promise<void> | undefined;
  const canAdopt = () => (adoptable ??= d.canAdopt());
  const ownerUID = d.owner.metadata.uid ?? "";
  return claimObjects(d.owner, sets, {
    match: (rs) => d.selector(rs.metadata.labels),
    // `AdoptReplicaSet`.
    adopt: async (rs) => {
      const m = rs.metadata;
      await canAdopt().catch((err: unknown) => {
        throw new Error(`can't adopt ReplicaSet ${m.namespace ?? ""}/${m.name ?? ""} (${m.uid ?? ""}): ${(err as Error).message}`, {
          cause: err,
        });
      });
      await d.patch(m.namespace ?? "", m.name ?? "", ownerRefControllerPatch(d.owner, m.uid ?? ""));
    },
    // `ReleaseReplicaSet`: a ReplicaSet gone or recreated (422) needs nothing.
    release: async (rs) => {
      try {
        await d.patch(rs.metadata.namespace ?? "", rs.metadata.name ?? "", deleteOwnerRefPatch(rs.metadata.uid ?? "", [ownerUID]));
      } catch (err) {
        if (!isNotFound(err) && !isInvalid(err)) throw err;
      }
    },
  });
}
