/**
 * The replica arithmetic of pkg/controller/deployment/util/deployment_util.go: maxSurge and
 * maxUnavailable resolved from percentages (`ResolveFenceposts`), how far the new ReplicaSet may
 * grow (`NewRSNewReplicas`), replica counts over ReplicaSets, and each ReplicaSet's share of a
 * proportional scale (`GetProportion`).
 */
import type { Deployment, IntOrString, ReplicaSet } from "@servicenet/api";
import { recreateDeploymentStrategyType, rollingUpdateDeploymentStrategyType } from "@servicenet/api";
import { desiredReplicasAnnotation, getMaxReplicasAnnotation } from "./replicas-annotations.ts";

const maxInt32 = 2 ** 31 - 1;

/** `*(d.Spec.Replicas)`: set by defaulting on every stored Deployment. */
export const deploymentReplicas = (d: Deployment): number => d.spec.replicas ?? 1;
/** `*(rs.Spec.Replicas)`. */
export const rsReplicas = (rs: ReplicaSet): number => rs.spec.replicas ?? 1;

/**
 * intstr `GetScaledValueFromIntOrPercent`: an int as is, a percentage of `total` rounded up or down.
 * @throws Error with intstr's message for a string that is no percentage.
 */
export function getScaledValueFromIntOrPercent(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) throw new Error("nil value for IntOrString");
  if (typeof v === "number") return v;
  if (!v.endsWith("%")) throw new Error("invalid value for IntOrString: invalid type: string is not a percentage");
  const s = v.slice(0, -1);
  if (!/^[+-]?\d+$/.test(s))
    throw new Error(
      `invalid value for IntOrString: invalid value ${JSON.stringify(v)}: strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`,
    );
  const x = (Number(s) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/**
 * `ResolveFenceposts`: maxSurge rounded up and maxUnavailable rounded down against `desired`; when
 * both come to zero, maxUnavailable is 1 (surge might be blocked by quota).
 */
export function resolveFenceposts(
  surgeIn: IntOrString | undefined,
  unavailableIn: IntOrString | undefined,
  desired: number,
): [number, number] {
  const surge = getScaledValueFromIntOrPercent(surgeIn ?? 0, desired, true);
  let unavailable = getScaledValueFromIntOrPercent(unavailableIn ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, unavailable];
}

/** `IsRollingUpdate`. */
export function isRollingUpdate(d: Deployment): boolean {
  return d.spec.strategy?.type === rollingUpdateDeploymentStrategyType;
}

/** `MaxUnavailable`: 0 for Recreate or zero replicas, never more than the replicas. */
export function maxUnavailable(d: Deployment): number {
  const replicas = deploymentReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const ru = d.spec.strategy?.rollingUpdate;
  const [, unavailable] = resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, replicas);
  return Math.min(unavailable, replicas);
}

/** `MinAvailable`. */
export function minAvailable(d: Deployment): number {
  return isRollingUpdate(d) ? deploymentReplicas(d) - maxUnavailable(d) : 0;
}

/** `MaxSurge`: 0 for Recreate. */
export function maxSurge(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  const ru = d.spec.strategy?.rollingUpdate;
  return resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, deploymentReplicas(d))[0];
}

/** `GetReplicaCountForReplicaSets`: the sum of spec.replicas. */
export function getReplicaCountForReplicaSets(rss: readonly (ReplicaSet | undefined)[]): number {
  return rss.reduce((n, rs) => n + (rs === undefined ? 0 : rsReplicas(rs)), 0);
}

/** `GetActualReplicaCountForReplicaSets`: the sum of status.replicas. */
export function getActualReplicaCountForReplicaSets(rss: readonly (ReplicaSet | undefined)[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.replicas ?? 0), 0);
}

/** `GetReadyReplicaCountForReplicaSets`. */
export function getReadyReplicaCountForReplicaSets(rss: readonly (ReplicaSet | undefined)[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.readyReplicas ?? 0), 0);
}

/** `GetAvailableReplicaCountForReplicaSets`. */
export function getAvailableReplicaCountForReplicaSets(rss: readonly (ReplicaSet | undefined)[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.availableReplicas ?? 0), 0);
}

/**
 * `NewRSNewReplicas`: RollingUpdate grows the new ReplicaSet up to replicas + maxSurge pods in
 * all, never past replicas; Recreate sizes it at once.
 * @throws Error for an unknown strategy or a bad maxSurge.
 */
export function newRSNewReplicas(d: Deployment, allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet): number {
  const replicas = deploymentReplicas(d);
  switch (d.spec.strategy?.type) {
    case rollingUpdateDeploymentStrategyType: {
      const surge = getScaledValueFromIntOrPercent(d.spec.strategy.rollingUpdate?.maxSurge, replicas, true);
      const currentPodCount = getReplicaCountForReplicaSets(allRSs);
      const maxTotalPods = replicas + surge;
      if (currentPodCount >= maxTotalPods) return rsReplicas(newRS);
      const scaleUpCount = Math.min(maxTotalPods - currentPodCount, replicas - rsReplicas(newRS));
      return rsReplicas(newRS) + scaleUpCount;
    }
    case recreateDeploymentStrategyType:
      return replicas;
    default:
      throw new Error(`deployment type ${d.spec.strategy?.type ?? ""} isn't supported`);
  }
}

/** `IsSaturated`: the new ReplicaSet has all the Deployment's replicas, desired and available. */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (rs === undefined) return false;
  const desired = rs.metadata.annotations?.[desiredReplicasAnnotation];
  if (desired === undefined || !/^[+-]?\d+$/.test(desired)) return false;
  const replicas = deploymentReplicas(d);
  return rsReplicas(rs) === replicas && Number(desired) === replicas && (rs.status?.availableReplicas ?? 0) === replicas;
}

/** `HasProgressDeadline`: set and not MaxInt32. */
export function hasProgressDeadline(d: Deployment): boolean {
  return d.spec.progressDeadlineSeconds !== undefined && d.spec.progressDeadlineSeconds !== maxInt32;
}

/** `HasRevisionHistoryLimit`: set and not MaxInt32. */
export function hasRevisionHistoryLimit(d: Deployment): boolean {
  return d.spec.revisionHistoryLimit !== undefined && d.spec.revisionHistoryLimit !== maxInt32;
}

/** integer `RoundToInt32`: half away from zero. */
function roundToInt32(a: number): number {
  return a < 0 ? Math.trunc(a - 0.5) : Math.trunc(a + 0.5);
}

/** `getReplicaSetFraction`: how many replicas `rs` should gain (or lose) when the Deployment is resized. */
function getReplicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  if (deploymentReplicas(d) === 0) return -rsReplicas(rs);
  const deploymentMaxReplicas = deploymentReplicas(d) + maxSurge(d);
  let before = getMaxReplicasAnnotation(rs);
  if (before === undefined || before === 0) {
    // Someone removed the annotation: the Deployment's current size is the best guess.
    before = d.status?.replicas ?? 0;
    if (before === 0) return 0;
  }
  return roundToInt32((rsReplicas(rs) * deploymentMaxReplicas) / before) - rsReplicas(rs);
}

/**
 * `GetProportion`: the share of `deploymentReplicasToAdd` that `rs` gets, never more (scaling up)
 * or less (scaling down) than what is left after `deploymentReplicasAdded`.
 */
export function getProportion(
  rs: ReplicaSet | undefined,
  d: Deployment,
  deploymentReplicasToAdd: number,
  deploymentReplicasAdded: number,
): number {
  if (rs === undefined || rsReplicas(rs) === 0 || deploymentReplicasToAdd === 0 || deploymentReplicasToAdd === deploymentReplicasAdded)
    return 0;
  const fraction = getReplicaSetFraction(rs, d);
  const allowed = deploymentReplicasToAdd - deploymentReplicasAdded;
  return deploymentReplicasToAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}
