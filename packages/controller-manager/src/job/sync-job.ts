/**
 * One sync of a Job as pkg/controller/job/job_controller.go `syncJob` decides it, without I/O:
 * finished Pods with the `batch.kubernetes.io/job-tracking` finalizer go to
 * `status.uncountedTerminatedPods` and are counted once their finalizer is off
 * (`trackJobStatusAndRemoveFinalizers`); the failure (backoffLimit, activeDeadlineSeconds) and
 * success criteria give `FailureTarget` or `SuccessCriteriaMet`, then `Failed` or `Complete` once
 * no Pod is left running; otherwise `manageJob` creates or deletes Pods towards parallelism
 * (suspend: none), with the failed-Pod back-off of `getRemainingTime`.
 */
import { jobTrackingFinalizer, type Job, type JobCondition, type JobStatus, type Pod } from "@servicenet/api";
import { isPodReady } from "../util/endpoint/pod.ts";
import {
  backoffLimitExceededMessage,
  completionsReachedMessage,
  deadlineExceededMessage,
  ensureCondition,
  finishedAt,
  isActive,
  isConditionTrue,
  isJobFinished,
  isPodFailed,
  isTerminating,
  jobReasonBackoffLimitExceeded,
  jobReasonCompletionsReached,
  jobReasonDeadlineExceeded,
  jobReasonResumed,
  jobReasonSuspended,
  onlyReplaceFailedPods,
} from "./job-conditions.ts";
import { firstPendingIndexes, formatIndexes, getCompletionIndex, parseIndexes } from "./indexed-job-utils.ts";

/** `DefaultJobPodFailureBackOff` and `MaxJobPodFailureBackOff`. */
export const defaultJobPodFailureBackOffMs = 10_000;
export const maxJobPodFailureBackOffMs = 360_000;

/** An event the sync records on the Job. */
export interface JobEvent {
  type: "Normal" | "Warning";
  reason: string;
  message: string;
}

/** What the controller writes for one sync, in order. */
export interface JobSyncPlan {
  /** The status with the newly finished Pods' UIDs added, written before their finalizers go (undefined: none). */
  uncountedStatus: JobStatus | undefined;
  /** Pods whose tracking finalizer comes off. */
  removeFinalizers: Pod[];
  /** Pods to delete (failure, success, suspend, surplus). */
  deletePods: Pod[];
  /** Completion indexes of the Pods to create (undefined entries for NonIndexed). */
  createPods: (number | undefined)[];
  /** The final status, assuming every finalizer came off. */
  status: JobStatus;
  events: JobEvent[];
  /** Sync again after this long (deadline, back-off), if set. */
  requeueAfterMs: number | undefined;
}

const rfc3339 = (ms: number) => new Date(ms - (ms % 1000)).toISOString().replace(".000Z", "Z");
const hasFinalizer = (p: Pod) => (p.metadata.finalizers ?? []).includes(jobTrackingFinalizer);
const isIndexed = (job: Job) => job.spec.completionMode === "Indexed";

/** The finished Pods to count, each in its list once. */
function trackFinished(job: Job, pods: readonly Pod[]) {
  const u = job.status?.uncountedTerminatedPods ?? {};
  const succeeded = new Set(u.succeeded ?? []);
  const failed = new Set(u.failed ?? []);
  let added = false;
  for (const p of pods) {
    const uid = p.metadata.uid ?? "";
    if (!hasFinalizer(p) || succeeded.has(uid) || failed.has(uid)) continue;
    if (p.status?.phase === "Succeeded") succeeded.add(uid);
    else if (isPodFailed(p, job)) failed.add(uid);
    else continue;
    added = true;
  }
  return { succeeded, failed, added };
}

/** The status counters once the uncounted Pods are counted (Indexed: succeeded is the completed indexes). */
function countUncounted(job: Job, pods: readonly Pod[], succeeded: Set<string>, failed: Set<string>) {
  const completions = job.spec.completions ?? 0;
  const completed = parseIndexes(job.status?.completedIndexes, completions);
  let nSucceeded = job.status?.succeeded ?? 0;
  let nFailed = job.status?.failed ?? 0;
  const byUid = new Map(pods.map((p) => [p.metadata.uid ?? "", p]));
  for (const uid of succeeded) {
    const p = byUid.get(uid);
    if (isIndexed(job)) {
      const i = p === undefined ? undefined : getCompletionIndex(p);
      if (i !== undefined && i < completions) completed.add(i);
    } else nSucceeded++;
  }
  nFailed += failed.size;
  if (isIndexed(job)) nSucceeded = completed.size;
  return { succeeded: nSucceeded, failed: nFailed, completed };
}

/** `pastActiveDeadline`: the time left before activeDeadlineSeconds, or undefined without one. */
function deadlineLeftMs(job: Job, startTime: string | undefined, now: number): number | undefined {
  if (job.spec.activeDeadlineSeconds === undefined || startTime === undefined) return undefined;
  return Date.parse(startTime) + job.spec.activeDeadlineSeconds * 1000 - now;
}

/** `getRemainingTime` of the back-off record: 10 s doubling per failure, capped at 6 min, from the last failure. */
function backoffLeftMs(job: Job, pods: readonly Pod[], failed: number, now: number): number {
  if (failed === 0) return 0;
  const last = Math.max(0, ...pods.filter((p) => isPodFailed(p, job)).map((p) => finishedAt(p) ?? 0));
  if (last === 0) return 0;
  const delay = Math.min(defaultJobPodFailureBackOffMs * 2 ** (failed - 1), maxJobPodFailureBackOffMs);
  return Math.max(0, last + delay - now);
}

/** Active Pods to delete first: not ready, then the newest (`controller.ActivePods` ranking, simplified). */
function surplus(active: readonly Pod[], n: number): Pod[] {
  const rank = (p: Pod) => (isPodReady(p) ? 1 : 0);
  return [...active]
    .sort(
      (a, b) => rank(a) - rank(b) || String(b.metadata.creationTimestamp ?? "").localeCompare(String(a.metadata.creationTimestamp ?? "")),
    )
    .slice(0, n);
}

/** Plans one sync of `job` over its Pods at `now` (ms). */
export function planJobSync(job: Job, pods: readonly Pod[], now: number): JobSyncPlan {
  const events: JobEvent[] = [];
  const conds: JobCondition[] = structuredClone(job.status?.conditions ?? []);
  const tracked = trackFinished(job, pods);
  const removeFinalizers = pods.filter(
    (p) => hasFinalizer(p) && (tracked.succeeded.has(p.metadata.uid ?? "") || tracked.failed.has(p.metadata.uid ?? "")),
  );
  const uncountedStatus = tracked.added
    ? { ...job.status, uncountedTerminatedPods: { succeeded: [...tracked.succeeded], failed: [...tracked.failed] } }
    : undefined;
  const counts = countUncounted(job, pods, tracked.succeeded, tracked.failed);
  const active = pods.filter(isActive);
  const terminating = pods.filter(isTerminating);
  const suspended = job.spec.suspend === true;
  let startTime = job.status?.startTime;
  let requeueAfterMs: number | undefined;
  const requeue = (ms: number) => (requeueAfterMs = requeueAfterMs === undefined ? ms : Math.min(requeueAfterMs, ms));
  const deletePods: Pod[] = [];
  const createPods: (number | undefined)[] = [];
  const finished = isJobFinished(job);

  if (!finished) {
    // Suspend and resume (the Suspended condition; startTime restarts the deadline on resume).
    if (suspended) {
      if (ensureCondition(conds, "Suspended", "True", jobReasonSuspended, "Job suspended", now)) {
        events.push({ type: "Normal", reason: "Suspended", message: "Job suspended" });
        startTime = undefined;
      }
    } else {
      if (ensureCondition(conds, "Suspended", "False", jobReasonResumed, "Job resumed", now)) {
        events.push({ type: "Normal", reason: "Resumed", message: "Job resumed" });
        startTime = undefined;
      }
      startTime ??= rfc3339(now);
    }
    const hasTarget = conds.some((c) => (c.type === "FailureTarget" || c.type === "SuccessCriteriaMet") && c.status === "True");
    if (!hasTarget) {
      const completions = job.spec.completions;
      const complete = completions !== undefined ? counts.succeeded >= completions : counts.succeeded > 0 && active.length === 0;
      const left = deadlineLeftMs(job, suspended ? undefined : startTime, now);
      if (complete) ensureCondition(conds, "SuccessCriteriaMet", "True", jobReasonCompletionsReached, completionsReachedMessage, now);
      else if (counts.failed > (job.spec.backoffLimit ?? 6))
        ensureCondition(conds, "FailureTarget", "True", jobReasonBackoffLimitExceeded, backoffLimitExceededMessage, now);
      else if (left !== undefined && left <= 0)
        ensureCondition(conds, "FailureTarget", "True", jobReasonDeadlineExceeded, deadlineExceededMessage, now);
      else if (left !== undefined) requeue(left);
    }
  }

  const target = conds.find((c) => (c.type === "FailureTarget" || c.type === "SuccessCriteriaMet") && c.status === "True");
  if (!finished && target !== undefined) {
    // The verdict is in: stop what still runs, finish once nothing runs and all is counted.
    deletePods.push(...active);
    // This sync's writes count every finished Pod, so only running Pods hold the verdict back.
    if (active.length === 0 && terminating.length === 0) {
      const type = target.type === "SuccessCriteriaMet" ? "Complete" : "Failed";
      ensureCondition(conds, type, "True", target.reason ?? "", target.message ?? "", now);
      if (type === "Complete") events.push({ type: "Normal", reason: "Completed", message: "Job completed" });
      else events.push({ type: "Warning", reason: target.reason ?? "", message: target.message ?? "" });
    }
  } else if (!finished) {
    // manageJob: towards parallelism, bounded by the completions still needed.
    const parallelism = job.spec.parallelism ?? 1;
    let wantActive = suspended ? 0 : parallelism;
    if (!suspended && job.spec.completions !== undefined)
      wantActive = Math.min(parallelism, Math.max(0, job.spec.completions - counts.succeeded));
    // With podReplacementPolicy Failed a terminating Pod still holds its place.
    const holding = active.length + (onlyReplaceFailedPods(job) ? terminating.length : 0);
    if (holding > wantActive) deletePods.push(...surplus(active, holding - wantActive));
    else if (holding < wantActive) {
      const wait = backoffLeftMs(job, pods, counts.failed, now);
      if (wait > 0) requeue(wait);
      else if (isIndexed(job))
        createPods.push(...firstPendingIndexes(active, counts.completed, wantActive - holding, job.spec.completions ?? 0));
      else for (let i = 0; i < wantActive - holding; i++) createPods.push(undefined);
    }
  }

  const stillActive = active.length - deletePods.filter(isActive).length + createPods.length;
  const done = conds.some((c) => (c.type === "Complete" || c.type === "Failed") && c.status === "True");
  const status: JobStatus = {
    ...(conds.length > 0 ? { conditions: conds } : {}),
    ...(startTime !== undefined ? { startTime } : {}),
    ...(job.status?.completionTime !== undefined ? { completionTime: job.status.completionTime } : {}),
    ...(done ? {} : stillActive > 0 ? { active: stillActive } : {}),
    ...(counts.succeeded > 0 ? { succeeded: counts.succeeded } : {}),
    ...(counts.failed > 0 ? { failed: counts.failed } : {}),
    terminating: done ? 0 : terminating.length + deletePods.length,
    ...(isIndexed(job) && counts.completed.size > 0 ? { completedIndexes: formatIndexes(counts.completed) } : {}),
    uncountedTerminatedPods: {},
    ready: done ? 0 : active.filter(isPodReady).length,
  };
  if (done && isConditionTrue({ ...job, status }, "Complete") && status.completionTime === undefined) status.completionTime = rfc3339(now);
  return { uncountedStatus, removeFinalizers, deletePods, createPods, status, events, requeueAfterMs };
}
