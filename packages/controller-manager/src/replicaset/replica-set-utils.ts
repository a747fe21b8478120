/**
 * pkg/controller/replicaset/replica_set_utils.go: the status a ReplicaSet's Pods give it
 * (`calculateStatus`), its `ReplicaFailure` condition, and the status write with one retry
 * (`updateReplicaSetStatus`).
 */
import type { Pod, ReplicaSet, ReplicaSetCondition, ReplicaSetStatus } from "@servicenet/api";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { isPodReady } from "../util/endpoint/pod.ts";

/** `apps.ReplicaSetReplicaFailure`. */
export const replicaSetReplicaFailure = "ReplicaFailure";

/** `statusUpdateRetries`: one GET and PUT again after a failed status update. */
export const statusUpdateRetries = 1;

/** The status reads and writes of ReplicaSets. */
export interface ReplicaSetClient {
  get(namespace: string, name: string): Promise<ReplicaSet>;
  /** PUT of the status subresource (with the object's resourceVersion). */
  updateStatus(rs: ReplicaSet): Promise<ReplicaSet>;
}

/** metav1.Time as JSON: RFC 3339 in whole seconds. */
export function metav1Time(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * `podutil.IsPodAvailable`: ready, and ready for more than `minReadySeconds` (at once when 0).
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const c = pod.status?.conditions?.find((x) => x.type === "Ready");
  const t = c?.lastTransitionTime !== undefined && c.lastTransitionTime !== null ? Date.parse(c.lastTransitionTime) : NaN;
  return !Number.isNaN(t) && t + minReadySeconds * 1000 < now;
}

/** `NewReplicaSetCondition`. */
export function newReplicaSetCondition(type: string, status: string, reason: string, message: string, now: number): ReplicaSetCondition {
  return { type, status, lastTransitionTime: metav1Time(now), reason, message };
}

/** `GetCondition`. */
export function getCondition(status: ReplicaSetStatus | undefined, type: string): ReplicaSetCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

// filterOutCondition: Go's nil slice when nothing is left, so an emptied list is no list.
function filterOutCondition(conditions: readonly ReplicaSetCondition[] | undefined, type: string): ReplicaSetCondition[] | undefined {
  const out = (conditions ?? []).filter((c) => c.type !== type);
  return out.length === 0 ? undefined : out;
}

/** `SetCondition`: replaces the condition of its type unless status and reason are unchanged. */
export function setCondition(status: ReplicaSetStatus, condition: ReplicaSetCondition): void {
  const current = getCondition(status, condition.type);
  if (current !== undefined && current.status === condition.status && current.reason === condition.reason) return;
  status.conditions = [...(filterOutCondition(status.conditions, condition.type) ?? []), condition];
}

/** `RemoveCondition`. */
export function removeCondition(status: ReplicaSetStatus, type: string): void {
  const rest = filterOutCondition(status.conditions, type);
  if (rest === undefined) delete status.conditions;
  else status.conditions = rest;
}

/**
 * `calculateStatus`: replicas, fully labeled (template labels all present), ready and available
 * (ready for minReadySeconds) counts of the active Pods, and the `ReplicaFailure` condition set
 * on a create or delete failure (`FailedCreate`/`FailedDelete`, the error as message) and removed
 * once managing the replicas works again.
 */
export function calculateStatus(
  rs: ReplicaSet,
  activePods: readonly Pod[],
  manageReplicasErr: Error | undefined,
  now: number,
): ReplicaSetStatus {
  const newStatus: ReplicaSetStatus = structuredClone(rs.status ?? { replicas: 0 });
  const template = Object.entries(rs.spec.template?.metadata.labels ?? {});
  const minReadySeconds = rs.spec.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of activePods) {
    const labels = pod.metadata.labels ?? {};
    if (template.every(([k, v]) => labels[k] === v)) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReadySeconds, now)) available++;
    }
  }
  const failureCond = getCondition(rs.status, replicaSetReplicaFailure);
  if (manageReplicasErr !== undefined && failureCond === undefined) {
    const diff = activePods.length - (rs.spec.replicas ?? 1);
    const reason = diff < 0 ? "FailedCreate" : diff > 0 ? "FailedDelete" : "";
    setCondition(newStatus, newReplicaSetCondition(replicaSetReplicaFailure, "True", reason, manageReplicasErr.message, now));
  } else if (manageReplicasErr === undefined && failureCond !== undefined) {
    removeCondition(newStatus, replicaSetReplicaFailure);
  }
  newStatus.replicas = activePods.length;
  newStatus.fullyLabeledReplicas = fullyLabeled;
  newStatus.readyReplicas = ready;
  newStatus.availableReplicas = available;
  return newStatus;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The status as Go encodes it: `replicas` always, the other counts only when not 0 (omitempty). */
function wireStatus(s: ReplicaSetStatus): ReplicaSetStatus {
  const out: ReplicaSetStatus = { replicas: s.replicas };
  for (const k of ["fullyLabeledReplicas", "readyReplicas", "availableReplicas", "terminatingReplicas", "observedGeneration"] as const)
    if (s[k] !== undefined && s[k] !== 0) out[k] = s[k];
  if (s.conditions !== undefined && s.conditions.length > 0) out.conditions = s.conditions;
  return out;
}

/**
 * `updateReplicaSetStatus`: nothing when the counts, the conditions and observedGeneration are
 * current; else a status PUT stamped with the generation acted on, and after a failure one GET
 * and PUT again. Returns the ReplicaSet as stored.
 * @throws the last update's error, or the GET's (more telling than the update's).
 */
export async function updateReplicaSetStatus(
  client: ReplicaSetClient,
  rs: ReplicaSet,
  newStatus: ReplicaSetStatus,
  logger: Logger = noopLogger,
): Promise<ReplicaSet> {
  const s = rs.status;
  const n = (v: number | undefined) => v ?? 0;
  if (
    n(s?.replicas) === n(newStatus.replicas) &&
    n(s?.fullyLabeledReplicas) === n(newStatus.fullyLabeledReplicas) &&
    n(s?.readyReplicas) === n(newStatus.readyReplicas) &&
    n(s?.availableReplicas) === n(newStatus.availableReplicas) &&
    n(rs.metadata.generation) === n(s?.observedGeneration) &&
    same(s?.conditions, newStatus.conditions)
  )
    return rs;
  const status = wireStatus({ ...newStatus, observedGeneration: rs.metadata.generation ?? 0 });
  let current = rs;
  for (let i = 0; ; i++) {
    V(logger, 4).info("Updating status for ReplicaSet", {
      replicaSet: `${current.metadata.namespace ?? ""}/${current.metadata.name ?? ""}`,
      replicas: `${n(current.status?.replicas)}->${status.replicas} (need ${current.spec.replicas ?? 1})`,
      fullyLabeledReplicas: `${n(current.status?.fullyLabeledReplicas)}->${n(status.fullyLabeledReplicas)}`,
      readyReplicas: `${n(current.status?.readyReplicas)}->${n(status.readyReplicas)}`,
      availableReplicas: `${n(current.status?.availableReplicas)}->${n(status.availableReplicas)}`,
      observedGeneration: `${n(current.status?.observedGeneration)}->${n(status.observedGeneration)}`,
    });
    try {
      return await client.updateStatus({ ...current, status });
    } catch (err) {
      if (i >= statusUpdateRetries) throw err;
    }
    current = await client.get(current.metadata.namespace ?? "", current.metadata.name ?? "");
  }
}
