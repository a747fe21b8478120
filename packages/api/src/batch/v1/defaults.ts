/**
 * batch/v1 defaulting (pkg/apis/batch/v1/defaults.go `SetDefaults_Job`, `SetDefaults_CronJob`,
 * `SetDefaults_PodFailurePolicyOnPodConditionsPattern`), with the pod template's PodSpec defaults
 * as the generated `SetObjectDefaults_Job` and `SetObjectDefaults_CronJob` apply them. The
 * JobPodReplacementPolicy gate is on (beta) in 1.33.
 */
import { setDefaultsPodTemplateSpec } from "../../apps/v1/defaults.ts";
import type { CronJob, Job, JobSpec } from "./types.ts";

export const nonIndexedCompletion = "NonIndexed";
export const indexedCompletion = "Indexed";
export const allowConcurrent = "Allow";
export const forbidConcurrent = "Forbid";
export const replaceConcurrent = "Replace";
export const podReplacementTerminatingOrFailed = "TerminatingOrFailed";
export const podReplacementFailed = "Failed";
const maxInt32 = 2_147_483_647;

/** `SetDefaults_PodFailurePolicyOnPodConditionsPattern`: an empty status is True. */
function setDefaultsPodFailurePolicy(spec: JobSpec): void {
  for (const rule of spec.podFailurePolicy?.rules ?? [])
    for (const pattern of rule.onPodConditions ?? []) if ((pattern.status ?? "") === "") pattern.status = "True";
}

/**
 * `SetDefaults_Job`: completions and parallelism 1 when both are unset, parallelism 1,
 * backoffLimit 6 (MaxInt32 with backoffLimitPerIndex), the template's labels as the Job's when it
 * has none, completionMode NonIndexed, suspend false, podReplacementPolicy (Failed with a
 * podFailurePolicy, else TerminatingOrFailed), manualSelector false. Mutates and returns `job`.
 */
export function setDefaultsJob(job: Job): Job {
  const spec = job.spec;
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex !== undefined ? maxInt32 : 6;
  const labels = spec.template.metadata.labels;
  if (labels !== undefined && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...labels };
  spec.completionMode ??= nonIndexedCompletion;
  spec.suspend ??= false;
  spec.podReplacementPolicy ??= spec.podFailurePolicy !== undefined ? podReplacementFailed : podReplacementTerminatingOrFailed;
  spec.manualSelector ??= false;
  setDefaultsPodFailurePolicy(spec);
  setDefaultsPodTemplateSpec(spec.template);
  return job;
}

/**
 * `SetDefaults_CronJob`: concurrencyPolicy Allow, suspend false, history limits 3 and 1. The job
 * template's JobSpec is not a Job, so only its pod template and failure policy get defaults.
 * Mutates and returns `cj`.
 */
export function setDefaultsCronJob(cj: CronJob): CronJob {
  const spec = cj.spec;
  if ((spec.concurrencyPolicy ?? "") === "") spec.concurrencyPolicy = allowConcurrent;
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  setDefaultsPodFailurePolicy(spec.jobTemplate.spec);
  setDefaultsPodTemplateSpec(spec.jobTemplate.spec.template);
  return cj;
}
