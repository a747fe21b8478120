/**
 * pkg/controller/deployment/progress.go: the Progressing condition (complete, progressing, timed
 * out), ReplicaFailure copied from the ReplicaSets, and a requeue for the moment a stuck rollout
 * would pass its progressDeadlineSeconds.
 */
import type { Deployment, DeploymentCondition, DeploymentStatus, ReplicaSet } from "@servicenet/api";
import { V } from "@servicenet/component-base/logs";
import type { DeploymentSyncContext } from "./context.ts";
import { calculateStatus, statusEqual } from "./sync.ts";
import * as cu from "./util/conditions.ts";
import { hasProgressDeadline } from "./util/replicas.ts";

/** `syncRolloutStatus`: the status with the rollout's conditions; written when it changed, else a requeue when stuck. */
export async function syncRolloutStatus(
  dc: DeploymentSyncContext,
  allRSs: (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
): Promise<void> {
  const now = dc.clock.now();
  const newStatus = calculateStatus(allRSs, newRS, d, now);
  if (!hasProgressDeadline(d)) cu.removeDeploymentCondition(newStatus, cu.deploymentProgressing);
  const currentCond = cu.getDeploymentCondition(d.status, cu.deploymentProgressing);
  const isCompleteDeployment = newStatus.replicas === newStatus.updatedReplicas && currentCond?.reason === cu.newRSAvailableReason;
  if (hasProgressDeadline(d) && !isCompleteDeployment) progressingCondition(d, newStatus, newRS, currentCond, now);
  const failure = getReplicaFailures(allRSs, newRS)[0];
  if (failure !== undefined) cu.setDeploymentCondition(newStatus, failure);
  else cu.removeDeploymentCondition(newStatus, cu.deploymentReplicaFailure);
  if (statusEqual(d.status, newStatus)) {
    requeueStuckDeployment(dc, d, newStatus);
    return;
  }
  await dc.client.updateDeploymentStatus({ ...d, status: newStatus });
}

/** The switch of `syncRolloutStatus`: complete, else progressing (only lastUpdateTime moves), else timed out. */
function progressingCondition(
  d: Deployment,
  s: DeploymentStatus,
  newRS: ReplicaSet | undefined,
  currentCond: DeploymentCondition | undefined,
  now: number,
): void {
  const subject =
    newRS !== undefined ? `ReplicaSet ${JSON.stringify(newRS.metadata.name ?? "")}` : `Deployment ${JSON.stringify(d.metadata.name ?? "")}`;
  if (cu.deploymentComplete(d, s)) {
    const c = cu.newDeploymentCondition(
      cu.deploymentProgressing,
      "True",
      cu.newRSAvailableReason,
      `${subject} has successfully progressed.`,
      now,
    );
    cu.setDeploymentCondition(s, c);
  } else if (cu.deploymentProgressingCheck(d, s)) {
    const c = cu.newDeploymentCondition(cu.deploymentProgressing, "True", cu.replicaSetUpdatedReason, `${subject} is progressing.`, now);
    // Same reason again still moves lastUpdateTime (SetDeploymentCondition would keep the old one).
    if (currentCond !== undefined) {
      if (currentCond.status === "True" && currentCond.lastTransitionTime !== undefined)
        c.lastTransitionTime = currentCond.lastTransitionTime;
      cu.removeDeploymentCondition(s, cu.deploymentProgressing);
    }
    cu.setDeploymentCondition(s, c);
  } else if (cu.deploymentTimedOut(d, s, now)) {
    const c = cu.newDeploymentCondition(cu.deploymentProgressing, "False", cu.timedOutReason, `${subject} has timed out progressing.`, now);
    cu.setDeploymentCondition(s, c);
  }
}

/** `getReplicaFailures`: ReplicaFailure conditions of the new ReplicaSet, else of any. */
export function getReplicaFailures(allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined): DeploymentCondition[] {
  const of = (rs: ReplicaSet | undefined) =>
    (rs?.status?.conditions ?? []).filter((c) => c.type === cu.deploymentReplicaFailure).map(cu.replicaSetToDeploymentCondition);
  const fromNew = of(newRS);
  return fromNew.length > 0 ? fromNew : allRSs.flatMap(of);
}

/**
 * `requeueStuckDeployment`: a rollout with no progress is looked at again when its deadline
 * passes (lastUpdateTime + progressDeadlineSeconds, plus a second for timer skew); at once
 * (rate-limited) when under a second is left. Returns the wait in ms, -1 for none.
 */
export function requeueStuckDeployment(dc: DeploymentSyncContext, d: Deployment, newStatus: DeploymentStatus): number {
  const currentCond = cu.getDeploymentCondition(d.status, cu.deploymentProgressing);
  if (!hasProgressDeadline(d) || currentCond === undefined) return -1;
  if (cu.deploymentComplete(d, newStatus) || currentCond.reason === cu.timedOutReason) return -1;
  const last = currentCond.lastUpdateTime !== undefined ? Date.parse(currentCond.lastUpdateTime) : 0;
  const after = last + (d.spec.progressDeadlineSeconds ?? 0) * 1000 - dc.clock.now();
  if (after < 1000) {
    V(dc.log, 4).info("Queueing up deployment for a progress check now", {
      deployment: `${d.metadata.namespace ?? ""}/${d.metadata.name ?? ""}`,
    });
    dc.enqueueRateLimited(d);
    return 0;
  }
  V(dc.log, 4).info("Queueing up deployment for a progress check", {
    deployment: `${d.metadata.namespace ?? ""}/${d.metadata.name ?? ""}`,
    queueAfter: Math.trunc(after / 1000),
  });
  dc.enqueueAfter(d, after + 1000);
  return after;
}
