/**
 * The annotation half of pkg/controller/deployment/util/deployment_util.go: revisions, the
 * annotations a Deployment copies to its new ReplicaSet (`SetNewReplicaSetAnnotations`) and the
 * desired/max replica annotations proportional scaling reads back.
 */
import type { Deployment, ReplicaSet } from "@servicenet/api";
import { maxSurge } from "./replicas.ts";
import { desiredReplicasAnnotation, maxReplicasAnnotation, setReplicasAnnotations } from "./replicas-annotations.ts";

export * from "./replicas-annotations.ts";

export const revisionAnnotation = "deployment.kubernetes.io/revision";
export const revisionHistoryAnnotation = "deployment.kubernetes.io/revision-history";
/** `apps.DeprecatedRollbackTo`: the extensions/v1beta1 `spec.rollbackTo` round-tripped through apps/v1. */
export const deprecatedRollbackToAnnotation = "deprecated.deployment.rollback.to";
/** `v1.LastAppliedConfigAnnotation`. */
export const lastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration";
/** `maxRevHistoryLengthInChars` of deployment_controller.go. */
export const maxRevHistoryLengthInChars = 2000;

const annotationsToSkip = new Set([
  lastAppliedConfigAnnotation,
  revisionAnnotation,
  revisionHistoryAnnotation,
  desiredReplicasAnnotation,
  maxReplicasAnnotation,
  deprecatedRollbackToAnnotation,
]);

/** `skipCopyAnnotation`: annotations a Deployment never copies to (or takes back from) a ReplicaSet. */
export function skipCopyAnnotation(key: string): boolean {
  return annotationsToSkip.has(key);
}

const int64 = /^[+-]?\d+$/;

/**
 * `Revision`: the revision annotation as a number, 0 when absent.
 * @throws Error with strconv's message when it is not an integer.
 */
export function revision(obj: { metadata: { annotations?: Record<string, string> | undefined } }): number {
  const v = obj.metadata.annotations?.[revisionAnnotation];
  if (v === undefined) return 0;
  if (!int64.test(v)) throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return Number(v);
}

function revisionOrUndefined(rs: ReplicaSet): number | undefined {
  try {
    return revision(rs);
  } catch {
    return undefined;
  }
}

/** `MaxRevision`: the highest revision among `rss` (unparsable ones skipped). */
export function maxRevision(rss: readonly (ReplicaSet | undefined)[]): number {
  let max = 0;
  for (const rs of rss) {
    const v = rs === undefined ? undefined : revisionOrUndefined(rs);
    if (v !== undefined && v > max) max = v;
  }
  return max;
}

/** `LastRevision`: the second highest revision, the one a rollback without a revision goes back to. */
export function lastRevision(rss: readonly (ReplicaSet | undefined)[]): number {
  let max = 0;
  let secMax = 0;
  for (const rs of rss) {
    const v = rs === undefined ? undefined : revisionOrUndefined(rs);
    if (v === undefined) continue;
    if (v >= max) {
      secMax = max;
      max = v;
    } else if (v > secMax) secMax = v;
  }
  return secMax;
}

/** `SetDeploymentRevision`: true when the Deployment's revision annotation changed. */
export function setDeploymentRevision(d: Deployment, rev: string): boolean {
  const annotations = (d.metadata.annotations ??= {});
  if (annotations[revisionAnnotation] === rev) return false;
  annotations[revisionAnnotation] = rev;
  return true;
}

/** `copyDeploymentAnnotationsToReplicaSet`: all but the skipped ones; true when something changed. */
export function copyDeploymentAnnotationsToReplicaSet(d: Deployment, rs: ReplicaSet): boolean {
  const to = (rs.metadata.annotations ??= {});
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (skipCopyAnnotation(k) || to[k] === v) continue;
    to[k] = v;
    changed = true;
  }
  return changed;
}

/** `SetDeploymentAnnotationsTo`: a rollback takes the ReplicaSet's copied annotations back (change-cause and the like). */
export function setDeploymentAnnotationsTo(d: Deployment, rollbackToRS: ReplicaSet): void {
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) if (skipCopyAnnotation(k)) kept[k] = v;
  for (const [k, v] of Object.entries(rollbackToRS.metadata.annotations ?? {})) if (!skipCopyAnnotation(k)) kept[k] = v;
  d.metadata.annotations = kept;
}

/**
 * `SetNewReplicaSetAnnotations`: copies the Deployment's annotations, raises the revision to
 * `newRevision` (keeping the replaced one in `revision-history`, at most `revHistoryLimitInChars`),
 * and for a ReplicaSet about to be created the desired/max replica annotations. True when changed.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  newRevision: string,
  exists: boolean,
  revHistoryLimitInChars: number,
): boolean {
  let changed = copyDeploymentAnnotationsToReplicaSet(d, rs);
  const annotations = (rs.metadata.annotations ??= {});
  const oldRevision = annotations[revisionAnnotation];
  let oldRevisionInt = 0;
  if (oldRevision !== undefined && oldRevision !== "") {
    if (!int64.test(oldRevision)) return false;
    oldRevisionInt = Number(oldRevision);
  }
  if (!int64.test(newRevision)) return false;
  const newRevisionInt = Number(newRevision);
  if (oldRevisionInt < newRevisionInt) {
    annotations[revisionAnnotation] = newRevision;
    changed = true;
  }
  // A ReplicaSet that had a revision and gets a newer one is being rolled back to: keep its history.
  if (oldRevision !== undefined && oldRevisionInt < newRevisionInt) {
    const history = annotations[revisionHistoryAnnotation] ?? "";
    const oldRevisions = history.split(",");
    if (oldRevisions[0]!.length === 0) annotations[revisionHistoryAnnotation] = oldRevision;
    else {
      let totalLen = history.length + oldRevision.length + 1;
      let start = 0;
      while (totalLen > revHistoryLimitInChars && start < oldRevisions.length) {
        totalLen -= oldRevisions[start]!.length + 1;
        start++;
      }
      if (totalLen <= revHistoryLimitInChars)
        annotations[revisionHistoryAnnotation] = [...oldRevisions.slice(start), oldRevision].join(",");
    }
  }
  const replicas = d.spec.replicas ?? 1;
  if (!exists && setReplicasAnnotations(rs, replicas, replicas + maxSurge(d))) changed = true;
  return changed;
}
