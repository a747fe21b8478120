/**
 * The scaling half of pkg/controller/deployment/sync.go: `scale` (one active ReplicaSet takes the
 * whole size; mid-rollout every active ReplicaSet gets its proportion of the change),
 * `scaleReplicaSet` with its `ScalingReplicaSet` event, and `cleanupDeployment`.
 */
import type { Deployment, ReplicaSet } from "@servicenet/api";
import { isNotFound } from "@servicenet/client/errors";
import { deploymentEvent, type DeploymentSyncContext } from "./context.ts";
import * as au from "./util/annotations.ts";
import * as ru from "./util/replicas.ts";
import * as su from "./util/replicaset-util.ts";

/**
 * `scaleReplicaSet`: writes the size and the desired/max replica annotations when either is
 * stale; returns whether the size changed and the ReplicaSet as stored.
 */
export async function scaleReplicaSet(
  dc: DeploymentSyncContext,
  rs: ReplicaSet,
  newScale: number,
  d: Deployment,
  scalingOperation: string,
): Promise<[boolean, ReplicaSet]> {
  const replicas = ru.deploymentReplicas(d);
  const maxReplicas = replicas + ru.maxSurge(d);
  const sizeNeedsUpdate = ru.rsReplicas(rs) !== newScale;
  if (!sizeNeedsUpdate && !au.replicasAnnotationsNeedUpdate(rs, replicas, maxReplicas)) return [false, rs];
  const oldScale = ru.rsReplicas(rs);
  const rsCopy = structuredClone(rs);
  rsCopy.spec.replicas = newScale;
  au.setReplicasAnnotations(rsCopy, replicas, maxReplicas);
  const updated = await dc.client.updateReplicaSet(rsCopy);
  if (!sizeNeedsUpdate) return [false, updated];
  deploymentEvent(
    dc,
    d,
    "Normal",
    "ScalingReplicaSet",
    `Scaled ${scalingOperation} replica set ${updated.metadata.name ?? ""} from ${oldScale} to ${newScale}`,
  );
  return [true, updated];
}

/** `scaleReplicaSetAndRecordEvent`: nothing when the size is already right. */
export async function scaleReplicaSetAndRecordEvent(
  dc: DeploymentSyncContext,
  rs: ReplicaSet,
  newScale: number,
  d: Deployment,
): Promise<[boolean, ReplicaSet]> {
  if (ru.rsReplicas(rs) === newScale) return [false, rs];
  return scaleReplicaSet(dc, rs, newScale, d, ru.rsReplicas(rs) < newScale ? "up" : "down");
}

/**
 * `scale`: one active (or, with none, the latest) ReplicaSet takes the Deployment's size; a
 * saturated new ReplicaSet scales the old ones to 0; otherwise (RollingUpdate) the change is
 * spread over the active ReplicaSets in proportion to their size, leftovers to the largest.
 */
export async function scale(dc: DeploymentSyncContext, d: Deployment, newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): Promise<void> {
  const replicas = ru.deploymentReplicas(d);
  const activeOrLatest = su.findActiveOrLatest(newRS, oldRSs);
  if (activeOrLatest !== undefined) {
    if (ru.rsReplicas(activeOrLatest) !== replicas) await scaleReplicaSetAndRecordEvent(dc, activeOrLatest, replicas, d);
    return;
  }
  if (ru.isSaturated(d, newRS)) {
    for (const old of su.filterActiveReplicaSets(oldRSs)) await scaleReplicaSetAndRecordEvent(dc, old, 0, d);
    return;
  }
  if (!ru.isRollingUpdate(d)) return;
  const allRSs = su.filterActiveReplicaSets([...oldRSs, newRS]);
  const allowedSize = replicas > 0 ? replicas + ru.maxSurge(d) : 0;
  const deploymentReplicasToAdd = allowedSize - ru.getReplicaCountForReplicaSets(allRSs);
  let scalingOperation = "";
  if (deploymentReplicasToAdd > 0) {
    allRSs.sort(su.bySizeNewer);
    scalingOperation = "up";
  } else if (deploymentReplicasToAdd < 0) {
    allRSs.sort(su.bySizeOlder);
    scalingOperation = "down";
  }
  let added = 0;
  const nameToSize = new Map<string, number>();
  for (const rs of allRSs) {
    const proportion = deploymentReplicasToAdd !== 0 ? ru.getProportion(rs, d, deploymentReplicasToAdd, added) : 0;
    nameToSize.set(rs.metadata.name ?? "", ru.rsReplicas(rs) + proportion);
    added += proportion;
  }
  for (const [i, rs] of allRSs.entries()) {
    const name = rs.metadata.name ?? "";
    if (i === 0 && deploymentReplicasToAdd !== 0)
      nameToSize.set(name, Math.max(0, nameToSize.get(name)! + deploymentReplicasToAdd - added));
    await scaleReplicaSet(dc, rs, nameToSize.get(name)!, d, scalingOperation);
  }
}

/**
 * `cleanupDeployment`: deletes the oldest ReplicaSets beyond revisionHistoryLimit, skipping any
 * that still has (or may still have) Pods or is already being deleted.
 */
export async function cleanupDeployment(dc: DeploymentSyncContext, oldRSs: ReplicaSet[], d: Deployment): Promise<void> {
  if (!ru.hasRevisionHistoryLimit(d)) return;
  const cleanable = oldRSs.filter((rs) => rs.metadata.deletionTimestamp === undefined || rs.metadata.deletionTimestamp === null);
  const diff = cleanable.length - (d.spec.revisionHistoryLimit ?? 0);
  if (diff <= 0) return;
  cleanable.sort(su.byRevision);
  for (const rs of cleanable.slice(0, diff)) {
    if ((rs.status?.replicas ?? 0) !== 0 || ru.rsReplicas(rs) !== 0) continue;
    if ((rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
    try {
      await dc.client.deleteReplicaSet(rs.metadata.namespace ?? "", rs.metadata.name ?? "");
    } catch (err) {
      // Stop at the first failure rather than pile DELETEs on a struggling apiserver.
      if (!isNotFound(err)) throw err;
    }
  }
}
