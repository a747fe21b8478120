/**
 * The desired-replicas and max-replicas annotations of pkg/controller/deployment/util/deployment_util.go:
 * what a ReplicaSet records of its Deployment's size for proportional scaling. Apart from the other
 * annotations because the replica arithmetic reads them and the annotation setters use it.
 */
import type { ReplicaSet } from "@servicenet/api";

export const desiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas";
export const maxReplicasAnnotation = "deployment.kubernetes.io/max-replicas";

/** `getNonNegativeInt32FromAnnotation`: the value when it is a uint32 no larger than MaxInt32. */
function nonNegativeInt32Annotation(rs: ReplicaSet, key: string): number | undefined {
  const v = rs.metadata.annotations?.[key];
  if (v === undefined || !/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n > 2 ** 31 - 1 ? undefined : n;
}

/** `GetDesiredReplicasAnnotation`. */
export function getDesiredReplicasAnnotation(rs: ReplicaSet): number | undefined {
  return nonNegativeInt32Annotation(rs, desiredReplicasAnnotation);
}

/** `getMaxReplicasAnnotation`. */
export function getMaxReplicasAnnotation(rs: ReplicaSet): number | undefined {
  return nonNegativeInt32Annotation(rs, maxReplicasAnnotation);
}

/** `SetReplicasAnnotations`: true when either annotation changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desiredReplicas: number, maxReplicas: number): boolean {
  const annotations = (rs.metadata.annotations ??= {});
  let updated = false;
  if (annotations[desiredReplicasAnnotation] !== String(desiredReplicas)) {
    annotations[desiredReplicasAnnotation] = String(desiredReplicas);
    updated = true;
  }
  if (annotations[maxReplicasAnnotation] !== String(maxReplicas)) {
    annotations[maxReplicasAnnotation] = String(maxReplicas);
    updated = true;
  }
  return updated;
}

/** `ReplicasAnnotationsNeedUpdate`. */
export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desiredReplicas: number, maxReplicas: number): boolean {
  const annotations = rs.metadata.annotations;
  if (annotations === undefined) return true;
  return annotations[desiredReplicasAnnotation] !== String(desiredReplicas) || annotations[maxReplicasAnnotation] !== String(maxReplicas);
}
