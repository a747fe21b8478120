/**
 * Job conditions and finished-Pod rules of pkg/controller/job/job_controller.go: `newCondition`,
 * `ensureJobConditionStatus`, `isPodFailed`, `onlyReplaceFailedPods` and the reasons and messages
 * of 1.33, where a Job first gets `SuccessCriteriaMet` or `FailureTarget` and, once its Pods are
 * gone, `Complete` or `Failed`.
 */
import type { Job, JobCondition, Pod } from "@servicenet/api";

export const jobReasonBackoffLimitExceeded = "BackoffLimitExceeded";
export const jobReasonDeadlineExceeded = "DeadlineExceeded";
export const jobReasonCompletionsReached = "CompletionsReached";
export const jobReasonSuspended = "JobSuspended";
export const jobReasonResumed = "JobResumed";
export const backoffLimitExceededMessage = "Job has reached the specified backoff limit";
export const deadlineExceededMessage = "Job was active longer than specified deadline";
export const completionsReachedMessage = "Reached expected number of succeeded pods";

const rfc3339 = (ms: number) => new Date(ms - (ms % 1000)).toISOString().replace(".000Z", "Z");

/** `newCondition`: probe and transition time now. */
export function newCondition(type: string, status: string, reason: string, message: string, now: number): JobCondition {
  const t = rfc3339(now);
  return { type, status, lastProbeTime: t, lastTransitionTime: t, reason, message };
}

/** The condition of `type`, if any. */
export function findCondition(job: Job, type: string): JobCondition | undefined {
  return job.status?.conditions?.find((c) => c.type === type);
}

/** Whether `type` is True. */
export const isConditionTrue = (job: Job, type: string): boolean => findCondition(job, type)?.status === "True";

/** `IsJobFinished`. */
export const isJobFinished = (job: Job): boolean => isConditionTrue(job, "Complete") || isConditionTrue(job, "Failed");

/**
 * `ensureJobConditionStatus`: sets `type` to `status` (a new transition time only when the status
 * changes); an absent condition is only added as True. Returns whether anything changed.
 */
export function ensureCondition(
  conds: JobCondition[],
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): boolean {
  const i = conds.findIndex((c) => c.type === type);
  if (i < 0) {
    if (status !== "True") return false;
    conds.push(newCondition(type, status, reason, message, now));
    return true;
  }
  const c = conds[i]!;
  if (c.status === status && c.reason === reason && c.message === message) return false;
  conds[i] = c.status === status ? { ...c, reason, message } : newCondition(type, status, reason, message, now);
  return true;
}

/** `onlyReplaceFailedPods`: podReplacementPolicy Failed (always with a podFailurePolicy). */
export const onlyReplaceFailedPods = (job: Job): boolean =>
  job.spec.podReplacementPolicy === "Failed" || job.spec.podFailurePolicy !== undefined;

const isTerminal = (p: Pod) => p.status?.phase === "Succeeded" || p.status?.phase === "Failed";
const isDeleting = (p: Pod) => p.metadata.deletionTimestamp !== undefined && p.metadata.deletionTimestamp !== null;

/** `isPodFailed`: Failed, or (unless only failed Pods are replaced) deleted before it succeeded. */
export function isPodFailed(p: Pod, job: Job): boolean {
  if (onlyReplaceFailedPods(job)) return p.status?.phase === "Failed";
  if (p.status?.phase === "Failed") return true;
  return isDeleting(p) && p.status?.phase !== "Succeeded";
}

/** `FilterActivePods`: neither finished nor being deleted. */
export const isActive = (p: Pod): boolean => !isTerminal(p) && !isDeleting(p);

/** `controller.FilterTerminatingPods`: being deleted, not finished. */
export const isTerminating = (p: Pod): boolean => isDeleting(p) && !isTerminal(p);

/** The moment a failed Pod finished: its last container's finishedAt, else its deletion. */
export function finishedAt(p: Pod): number | undefined {
  const times = (p.status?.containerStatuses ?? [])
    .map((s) => (s.state as { terminated?: { finishedAt?: string } } | undefined)?.terminated?.finishedAt)
    .filter((t): t is string => typeof t === "string")
    .map((t) => Date.parse(t));
  if (times.length > 0) return Math.max(...times);
  const d = p.metadata.deletionTimestamp;
  return typeof d === "string" ? Date.parse(d) : undefined;
}
