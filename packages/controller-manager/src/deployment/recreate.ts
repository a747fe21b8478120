/**
 * pkg/controller/deployment/recreate.go: old ReplicaSets go to 0, and only once none of their Pods
 * is left running is the new ReplicaSet created and scaled to the Deployment's size.
 */
import type { Deployment, Pod, ReplicaSet } from "@servicenet/api";
import type { DeploymentSyncContext } from "./context.ts";
import { syncRolloutStatus } from "./progress.ts";
import { cleanupDeployment, scaleReplicaSetAndRecordEvent } from "./scale.ts";
import { getAllReplicaSetsAndSyncRevision } from "./sync.ts";
import { deploymentComplete } from "./util/conditions.ts";
import * as ru from "./util/replicas.ts";
import { filterActiveReplicaSets } from "./util/replicaset-util.ts";

/** `rolloutRecreate`. `podMap` holds the Pods of each ReplicaSet, by ReplicaSet UID. */
export async function rolloutRecreate(
  dc: DeploymentSyncContext,
  d: Deployment,
  rsList: ReplicaSet[],
  podMap: Map<string, Pod[]>,
): Promise<void> {
  // No new ReplicaSet yet: scaling up before the old Pods are gone is what Recreate rules out.
  let [newRS, oldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, false);
  let allRSs = [...oldRSs, newRS];
  if (await scaleDownOldReplicaSetsForRecreate(dc, filterActiveReplicaSets(oldRSs), d)) return syncRolloutStatus(dc, allRSs, newRS, d);
  if (oldPodsRunning(newRS, oldRSs, podMap)) return syncRolloutStatus(dc, allRSs, newRS, d);
  if (newRS === undefined) {
    [newRS, oldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, true);
    allRSs = [...oldRSs, newRS];
  }
  await scaleReplicaSetAndRecordEvent(dc, newRS!, ru.deploymentReplicas(d), d);
  if (deploymentComplete(d, d.status ?? {})) await cleanupDeployment(dc, oldRSs, d);
  return syncRolloutStatus(dc, allRSs, newRS, d);
}

/** `scaleDownOldReplicaSetsForRecreate`: every old ReplicaSet to 0; true when any was scaled. */
export async function scaleDownOldReplicaSetsForRecreate(dc: DeploymentSyncContext, oldRSs: ReplicaSet[], d: Deployment): Promise<boolean> {
  let scaled = false;
  for (const [i, rs] of oldRSs.entries()) {
    if (ru.rsReplicas(rs) === 0) continue;
    const [did, updated] = await scaleReplicaSetAndRecordEvent(dc, rs, 0, d);
    if (did) {
      oldRSs[i] = updated;
      scaled = true;
    }
  }
  return scaled;
}

/**
 * `oldPodsRunning`: an old ReplicaSet still reports replicas, or a Pod of one is in a phase other
 * than Succeeded/Failed (Unknown counts: it may still run).
 */
export function oldPodsRunning(newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[], podMap: Map<string, Pod[]>): boolean {
  if (ru.getActualReplicaCountForReplicaSets(oldRSs) > 0) return true;
  for (const [uid, pods] of podMap) {
    if (newRS !== undefined && newRS.metadata.uid === uid) continue;
    if (pods.some((p) => p.status?.phase !== "Failed" && p.status?.phase !== "Succeeded")) return true;
  }
  return false;
}
