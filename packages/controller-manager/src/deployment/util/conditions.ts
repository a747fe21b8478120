/**
 * Deployment conditions and the rollout checks of pkg/controller/deployment/util/deployment_util.go:
 * `NewDeploymentCondition`, `Get/Set/RemoveDeploymentCondition`, `DeploymentComplete`,
 * `DeploymentProgressing`, `DeploymentTimedOut` and the reasons they are written with.
 */
import { formatTime, type Deployment, type DeploymentCondition, type DeploymentStatus, type ReplicaSetCondition } from "@servicenet/api";
import { deploymentReplicas, hasProgressDeadline } from "./replicas.ts";

export const deploymentAvailable = "Available";
export const deploymentProgressing = "Progressing";
export const deploymentReplicaFailure = "ReplicaFailure";

export const rollbackRevisionNotFound = "DeploymentRollbackRevisionNotFound";
export const rollbackTemplateUnchanged = "DeploymentRollbackTemplateUnchanged";
export const rollbackDone = "DeploymentRollback";
export const replicaSetUpdatedReason = "ReplicaSetUpdated";
export const failedRSCreateReason = "ReplicaSetCreateError";
export const newReplicaSetReason = "NewReplicaSetCreated";
export const foundNewRSReason = "FoundNewReplicaSet";
export const newRSAvailableReason = "NewReplicaSetAvailable";
export const timedOutReason = "ProgressDeadlineExceeded";
export const pausedDeployReason = "DeploymentPaused";
export const resumedDeployReason = "DeploymentResumed";
export const minimumReplicasAvailable = "MinimumReplicasAvailable";
export const minimumReplicasUnavailable = "MinimumReplicasUnavailable";

/** `NewDeploymentCondition`: both times `nowMs`, as metav1.Now() serialises (seconds). */
export function newDeploymentCondition(type: string, status: string, reason: string, message: string, nowMs: number): DeploymentCondition {
  const t = formatTime(new Date(nowMs));
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

/** `GetDeploymentCondition`. */
export function getDeploymentCondition(status: DeploymentStatus | undefined, type: string): DeploymentCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/**
 * `SetDeploymentCondition`: nothing when status and reason are unchanged; the transition time
 * kept when only the reason changed; the condition moved to the end.
 */
export function setDeploymentCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getDeploymentCondition(status, condition.type);
  if (current !== undefined && current.status === condition.status && current.reason === condition.reason) return;
  const c = { ...condition };
  if (current !== undefined && current.status === c.status && current.lastTransitionTime !== undefined)
    c.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((x) => x.type !== c.type), c];
}

/** `RemoveDeploymentCondition`. */
export function removeDeploymentCondition(status: DeploymentStatus, type: string): void {
  if (status.conditions === undefined) return;
  status.conditions = status.conditions.filter((c) => c.type !== type);
}

/** `ReplicaSetToDeploymentCondition`: lastUpdateTime is the ReplicaSet condition's transition time. */
export function replicaSetToDeploymentCondition(c: ReplicaSetCondition): DeploymentCondition {
  return {
    type: c.type,
    status: c.status,
    ...(c.lastTransitionTime !== undefined ? { lastUpdateTime: c.lastTransitionTime, lastTransitionTime: c.lastTransitionTime } : {}),
    ...(c.reason !== undefined ? { reason: c.reason } : {}),
    ...(c.message !== undefined ? { message: c.message } : {}),
  };
}

/** `DeploymentComplete`: every replica updated and available, and the latest generation observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const replicas = deploymentReplicas(d);
  return (
    (s.updatedReplicas ?? 0) === replicas &&
    (s.replicas ?? 0) === replicas &&
    (s.availableReplicas ?? 0) === replicas &&
    (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/** `DeploymentProgressing`: more updated, ready or available replicas, or fewer old ones, than the stored status. */
export function deploymentProgressingCheck(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldStatusOldReplicas = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newStatusOldReplicas = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newStatusOldReplicas < oldStatusOldReplicas ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/**
 * `DeploymentTimedOut`: the Progressing condition was last updated more than
 * progressDeadlineSeconds before `nowMs` (never after a completed rollout; always once timed out).
 */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, nowMs: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getDeploymentCondition(s, deploymentProgressing);
  if (c === undefined) return false;
  if (c.reason === newRSAvailableReason) return false;
  if (c.reason === timedOutReason) return true;
  const from = c.lastUpdateTime !== undefined ? Date.parse(c.lastUpdateTime) : 0;
  return from + (d.spec.progressDeadlineSeconds ?? 0) * 1000 < nowMs;
}
