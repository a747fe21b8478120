/**
 * `manageReplicas` and `getPodsToDelete` (pkg/controller/replicaset/replica_set.go): the creates
 * or deletes that bring a ReplicaSet's Pods to `spec.replicas`, at most `burstReplicas` per sync,
 * each expected in the informer before the next sync acts again.
 */
import { namespaceTerminatingCause, type Pod, type ReplicaSet } from "@servicenet/api";
import { hasStatusCause, isNotFound } from "@servicenet/client/errors";
import { metaNamespaceKey } from "@servicenet/client/tools/cache";
import { V, type Logger } from "@servicenet/component-base/logs";
import type { UIDTrackingControllerExpectations } from "../controller/controller-expectations.ts";
import { newControllerRef } from "../controller/controller-ref-manager.ts";
import { podsToDelete, ranksByRelatedPodsOnSameNode, type RankingGates } from "../controller/controller-utils.ts";
import { slowStartInitialBatchSize, type ControllerObject, type PodControlInterface } from "../controller/pod-control.ts";
import { slowStartBatch } from "./slow-start-batch.ts";

/** What manageReplicas works with (the controller's parts). */
export interface ManageDeps {
  podControl: PodControlInterface;
  expectations: UIDTrackingControllerExpectations;
  burstReplicas: number;
  /** `getIndirectlyRelatedPods`: the Pods of every ReplicaSet under the same owner. */
  relatedPods(rs: ReplicaSet): Pod[];
  now(): number;
  gates: RankingGates;
  logger: Logger;
}

const podKey = (pod: Pod): string => `${pod.metadata.namespace ?? ""}/${pod.metadata.name ?? ""}`;

/**
 * `getPodsToDelete`: the first `diff` Pods by `ActivePodsWithRanks` (rank = the related Pods on
 * the same node), unsorted when all of them go.
 */
export function getPodsToDelete(
  filteredPods: readonly Pod[],
  relatedPods: readonly Pod[],
  diff: number,
  now?: number,
  gates?: RankingGates,
): Pod[] {
  if (diff >= filteredPods.length) return filteredPods.slice(0, diff);
  return podsToDelete(filteredPods, ranksByRelatedPodsOnSameNode(filteredPods, relatedPods), diff, now, gates);
}

/** `getPodKeys`. */
export const getPodKeys = (pods: readonly Pod[]): string[] => pods.map(podKey);

/**
 * `manageReplicas`: creates the missing Pods (slow start: 1, 2, 4, ... stopping at the first
 * failed batch, the creates never tried no longer expected) or deletes the surplus ones chosen by
 * `getPodsToDelete`. A create refused because the namespace is terminating is no error.
 * @throws the first create or delete error (a Pod already gone is none).
 */
export async function manageReplicas(d: ManageDeps, filteredPods: readonly Pod[], rs: ReplicaSet): Promise<void> {
  const key = metaNamespaceKey(rs);
  const want = rs.spec.replicas ?? 1;
  let diff = filteredPods.length - want;
  const owner: ControllerObject = { apiVersion: "apps/v1", kind: "ReplicaSet", metadata: rs.metadata };
  if (diff < 0) {
    diff = Math.min(-diff, d.burstReplicas);
    // Creates are counted, not tracked by uid: the uid is only known once the create returned.
    d.expectations.expectCreations(key, diff);
    V(d.logger, 2).info("Too few replicas", { replicaSet: key, need: want, creating: diff });
    const template = rs.spec.template ?? { metadata: {}, spec: { containers: [] } };
    const { successes, error } = await slowStartBatch(diff, slowStartInitialBatchSize, async () => {
      try {
        await d.podControl.createPods(rs.metadata.namespace ?? "", template, owner, newControllerRef(owner));
      } catch (err) {
        if (hasStatusCause(err, namespaceTerminatingCause)) return;
        throw err;
      }
    });
    const skipped = diff - successes;
    if (skipped > 0) {
      V(d.logger, 2).info("Slow-start failure. Skipping creation of pods, decrementing expectations", {
        podsSkipped: skipped,
        kind: "ReplicaSet",
        replicaSet: key,
      });
      // The informer will never see these: the next sync tries again.
      for (let i = 0; i < skipped; i++) d.expectations.creationObserved(key);
    }
    if (error !== undefined) throw error;
    return;
  }
  if (diff === 0) return;
  diff = Math.min(diff, d.burstReplicas);
  V(d.logger, 2).info("Too many replicas", { replicaSet: key, need: want, deleting: diff });
  const victims = getPodsToDelete(filteredPods, d.relatedPods(rs), diff, d.now(), d.gates);
  // The Pods' keys, so each deletion is counted once: as the deletionTimestamp update or as the delete.
  d.expectations.expectDeletionsOf(key, getPodKeys(victims));
  const errors: Error[] = [];
  await Promise.all(
    victims.map(async (pod) => {
      try {
        await d.podControl.deletePod(rs.metadata.namespace ?? "", pod.metadata.name ?? "", owner);
      } catch (err) {
        // The informer will not observe this deletion.
        d.expectations.deletionObservedOf(key, podKey(pod));
        if (!isNotFound(err)) {
          V(d.logger, 2).info("Failed to delete pod, decremented expectations", { pod: podKey(pod), kind: "ReplicaSet", replicaSet: key });
          errors.push(err as Error);
        }
      }
    }),
  );
  if (errors.length > 0) throw errors[0]!;
}
