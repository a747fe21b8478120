/**
 * pkg/controller/deployment/rolling.go: a RollingUpdate grows the new ReplicaSet within maxSurge
 * and shrinks the old ones within maxUnavailable, unhealthy old replicas first.
 */
import type { Deployment, ReplicaSet } from "@servicenet/api";
import { V } from "@servicenet/component-base/logs";
import type { DeploymentSyncContext } from "./context.ts";
import { syncRolloutStatus } from "./progress.ts";
import { cleanupDeployment, scaleReplicaSetAndRecordEvent } from "./scale.ts";
import { getAllReplicaSetsAndSyncRevision } from "./sync.ts";
import { deploymentComplete } from "./util/conditions.ts";
import * as ru from "./util/replicas.ts";
import * as su from "./util/replicaset-util.ts";

/** `rolloutRolling`: one step of a rolling update, then the status. */
export async function rolloutRolling(dc: DeploymentSyncContext, d: Deployment, rsList: ReplicaSet[]): Promise<void> {
  const [created, oldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, true);
  const newRS = created!;
  const allRSs = [...oldRSs, newRS];
  if (await reconcileNewReplicaSet(dc, allRSs, newRS, d)) return syncRolloutStatus(dc, allRSs, newRS, d);
  if (await reconcileOldReplicaSets(dc, allRSs, su.filterActiveReplicaSets(oldRSs), newRS, d))
    return syncRolloutStatus(dc, allRSs, newRS, d);
  if (deploymentComplete(d, d.status ?? {})) await cleanupDeployment(dc, oldRSs, d);
  return syncRolloutStatus(dc, allRSs, newRS, d);
}

/** `reconcileNewReplicaSet`: scales the new ReplicaSet down to or up towards the Deployment's size. */
export async function reconcileNewReplicaSet(
  dc: DeploymentSyncContext,
  allRSs: ReplicaSet[],
  newRS: ReplicaSet,
  d: Deployment,
): Promise<boolean> {
  const replicas = ru.deploymentReplicas(d);
  if (ru.rsReplicas(newRS) === replicas) return false;
  if (ru.rsReplicas(newRS) > replicas) return (await scaleReplicaSetAndRecordEvent(dc, newRS, replicas, d))[0];
  return (await scaleReplicaSetAndRecordEvent(dc, newRS, ru.newRSNewReplicas(d, allRSs, newRS), d))[0];
}

/**
 * `reconcileOldReplicaSets`: how far old ReplicaSets may shrink keeps replicas - maxUnavailable
 * available, counting the new ReplicaSet's unavailable Pods against it. Errors end the step
 * quietly (false), as upstream.
 */
export async function reconcileOldReplicaSets(
  dc: DeploymentSyncContext,
  allRSs: ReplicaSet[],
  oldRSs: ReplicaSet[],
  newRS: ReplicaSet,
  d: Deployment,
): Promise<boolean> {
  if (ru.getReplicaCountForReplicaSets(oldRSs) === 0) return false;
  const allPodsCount = ru.getReplicaCountForReplicaSets(allRSs);
  const minAvailable = ru.deploymentReplicas(d) - ru.maxUnavailable(d);
  const newRSUnavailablePodCount = ru.rsReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = allPodsCount - minAvailable - newRSUnavailablePodCount;
  if (maxScaledDown <= 0) return false;
  let cleaned: [ReplicaSet[], number];
  try {
    cleaned = await cleanupUnhealthyReplicas(dc, oldRSs, d, maxScaledDown);
  } catch {
    return false;
  }
  V(dc.log, 4).info("Cleaned up unhealthy replicas from old RSes", { count: cleaned[1] });
  let scaledDownCount: number;
  try {
    scaledDownCount = await scaleDownOldReplicaSetsForRollingUpdate(dc, [...cleaned[0], newRS], cleaned[0], d);
  } catch {
    return false;
  }
  return cleaned[1] + scaledDownCount > 0;
}

/**
 * `cleanupUnhealthyReplicas`: oldest first, each old ReplicaSet loses its unavailable replicas,
 * at most `maxCleanupCount` in all; returns the ReplicaSets as stored and how many went.
 */
export async function cleanupUnhealthyReplicas(
  dc: DeploymentSyncContext,
  oldRSs: ReplicaSet[],
  d: Deployment,
  maxCleanupCount: number,
): Promise<[ReplicaSet[], number]> {
  oldRSs.sort(su.byCreationTimestamp);
  let total = 0;
  for (const [i, rs] of oldRSs.entries()) {
    if (total >= maxCleanupCount) break;
    const replicas = ru.rsReplicas(rs);
    const available = rs.status?.availableReplicas ?? 0;
    if (replicas === 0 || replicas === available) continue;
    const scaledDownCount = Math.min(maxCleanupCount - total, replicas - available);
    const newReplicasCount = replicas - scaledDownCount;
    if (newReplicasCount > replicas)
      throw new Error(
        `when cleaning up unhealthy replicas, got invalid request to scale down ${rs.metadata.namespace ?? ""}/${rs.metadata.name ?? ""} ${replicas} -> ${newReplicasCount}`,
      );
    const [, updated] = await scaleReplicaSetAndRecordEvent(dc, rs, newReplicasCount, d);
    total += scaledDownCount;
    oldRSs[i] = updated;
  }
  return [oldRSs, total];
}

/** `scaleDownOldReplicaSetsForRollingUpdate`: oldest first, down to what keeps minAvailable available. */
export async function scaleDownOldReplicaSetsForRollingUpdate(
  dc: DeploymentSyncContext,
  allRSs: ReplicaSet[],
  oldRSs: ReplicaSet[],
  d: Deployment,
): Promise<number> {
  const minAvailable = ru.deploymentReplicas(d) - ru.maxUnavailable(d);
  const availablePodCount = ru.getAvailableReplicaCountForReplicaSets(allRSs);
  if (availablePodCount <= minAvailable) return 0;
  oldRSs.sort(su.byCreationTimestamp);
  let total = 0;
  const totalScaleDownCount = availablePodCount - minAvailable;
  for (const rs of oldRSs) {
    if (total >= totalScaleDownCount) break;
    const replicas = ru.rsReplicas(rs);
    if (replicas === 0) continue;
    const scaleDownCount = Math.min(replicas, totalScaleDownCount - total);
    await scaleReplicaSetAndRecordEvent(dc, rs, replicas - scaleDownCount, d);
    total += scaleDownCount;
  }
  return total;
}
