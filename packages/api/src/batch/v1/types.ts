/**
 * batch/v1 Job and CronJob (k8s.io/api/batch/v1 types.go, v1.33), fields in Go struct order. The
 * pod template is apps/v1's PodTemplateSpec (core/v1's, with the loose PodSpec).
 */
import { z } from "zod";
import { PodTemplateSpecSchema } from "../../apps/v1/types.ts";
import { ObjectReferenceSchema } from "../../core/v1/object-reference.ts";
import { LabelSelectorSchema } from "../../meta/v1/label-selector.ts";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { OptionalTimeStringSchema } from "../../meta/v1/type-meta.ts";

/** The labels and annotation of Jobs and their Pods (types.go constants). */
export const jobCompletionIndexAnnotation = "batch.kubernetes.io/job-completion-index";
export const jobTrackingFinalizer = "batch.kubernetes.io/job-tracking";
export const jobNameLabel = "batch.kubernetes.io/job-name";
export const controllerUidLabel = "batch.kubernetes.io/controller-uid";
/** The unprefixed labels the Job registry still sets (pkg/apis/batch/types.go LegacyJobNameLabel). */
export const legacyJobNameLabel = "job-name";
export const legacyControllerUidLabel = "controller-uid";
/** Set on a CronJob's Jobs: the scheduled time they ran for (RFC 3339). */
export const cronJobScheduledTimestampAnnotation = "batch.kubernetes.io/cronjob-scheduled-timestamp";

export const PodFailurePolicyOnExitCodesRequirementSchema = z.object({
  containerName: z.string().optional(),
  operator: z.string(),
  values: z.array(z.number().int()),
});
export const PodFailurePolicyOnPodConditionsPatternSchema = z.object({ type: z.string(), status: z.string().optional() });
export const PodFailurePolicyRuleSchema = z.object({
  action: z.string(),
  onExitCodes: PodFailurePolicyOnExitCodesRequirementSchema.optional(),
  onPodConditions: z.array(PodFailurePolicyOnPodConditionsPatternSchema).optional(),
});
export const PodFailurePolicySchema = z.object({ rules: z.array(PodFailurePolicyRuleSchema) });
export type PodFailurePolicy = z.infer<typeof PodFailurePolicySchema>;

export const SuccessPolicyRuleSchema = z.object({
  succeededIndexes: z.string().optional(),
  succeededCount: z.number().int().optional(),
});
export const SuccessPolicySchema = z.object({ rules: z.array(SuccessPolicyRuleSchema) });
export type SuccessPolicy = z.infer<typeof SuccessPolicySchema>;

export const JobSpecSchema = z.object({
  parallelism: z.number().int().optional(),
  completions: z.number().int().optional(),
  activeDeadlineSeconds: z.number().int().optional(),
  podFailurePolicy: PodFailurePolicySchema.optional(),
  successPolicy: SuccessPolicySchema.optional(),
  backoffLimit: z.number().int().optional(),
  backoffLimitPerIndex: z.number().int().optional(),
  maxFailedIndexes: z.number().int().optional(),
  selector: LabelSelectorSchema.optional(),
  manualSelector: z.boolean().optional(),
  template: PodTemplateSpecSchema.default({ metadata: {}, spec: { containers: [] } }),
  ttlSecondsAfterFinished: z.number().int().optional(),
  /** NonIndexed or Indexed. */
  completionMode: z.string().optional(),
  suspend: z.boolean().optional(),
  /** TerminatingOrFailed or Failed. */
  podReplacementPolicy: z.string().optional(),
  managedBy: z.string().optional(),
});
export type JobSpec = z.infer<typeof JobSpecSchema>;

export const JobConditionSchema = z.object({
  type: z.string(),
  status: z.string(),
  lastProbeTime: OptionalTimeStringSchema,
  lastTransitionTime: OptionalTimeStringSchema,
  reason: z.string().optional(),
  message: z.string().optional(),
});
export type JobCondition = z.infer<typeof JobConditionSchema>;

export const UncountedTerminatedPodsSchema = z.object({
  succeeded: z.array(z.string()).optional(),
  failed: z.array(z.string()).optional(),
});
export type UncountedTerminatedPods = z.infer<typeof UncountedTerminatedPodsSchema>;

export const JobStatusSchema = z.object({
  conditions: z.array(JobConditionSchema).optional(),
  startTime: OptionalTimeStringSchema,
  completionTime: OptionalTimeStringSchema,
  active: z.number().int().optional(),
  succeeded: z.number().int().optional(),
  failed: z.number().int().optional(),
  terminating: z.number().int().optional(),
  completedIndexes: z.string().optional(),
  failedIndexes: z.string().optional(),
  uncountedTerminatedPods: UncountedTerminatedPodsSchema.optional(),
  ready: z.number().int().optional(),
});
export type JobStatus = z.infer<typeof JobStatusSchema>;

export const JobSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: JobSpecSchema.default({ template: { metadata: {}, spec: { containers: [] } } }),
  status: JobStatusSchema.optional(),
});
export type Job = z.infer<typeof JobSchema>;
export const JobListSchema = listSchemaOf(JobSchema);
export type JobList = z.infer<typeof JobListSchema>;

export const JobTemplateSpecSchema = z.object({
  metadata: ObjectMetaSchema.default({}),
  spec: JobSpecSchema.default({ template: { metadata: {}, spec: { containers: [] } } }),
});
export type JobTemplateSpec = z.infer<typeof JobTemplateSpecSchema>;

export const CronJobSpecSchema = z.object({
  schedule: z.string().default(""),
  timeZone: z.string().optional(),
  startingDeadlineSeconds: z.number().int().optional(),
  /** Allow, Forbid or Replace. */
  concurrencyPolicy: z.string().optional(),
  suspend: z.boolean().optional(),
  jobTemplate: JobTemplateSpecSchema.default({ metadata: {}, spec: { template: { metadata: {}, spec: { containers: [] } } } }),
  successfulJobsHistoryLimit: z.number().int().optional(),
  failedJobsHistoryLimit: z.number().int().optional(),
});
export type CronJobSpec = z.infer<typeof CronJobSpecSchema>;

export const CronJobStatusSchema = z.object({
  active: z.array(ObjectReferenceSchema).optional(),
  lastScheduleTime: OptionalTimeStringSchema,
  lastSuccessfulTime: OptionalTimeStringSchema,
});
export type CronJobStatus = z.infer<typeof CronJobStatusSchema>;

export const CronJobSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: CronJobSpecSchema.default({
    schedule: "",
    jobTemplate: { metadata: {}, spec: { template: { metadata: {}, spec: { containers: [] } } } },
  }),
  status: CronJobStatusSchema.optional(),
});
export type CronJob = z.infer<typeof CronJobSchema>;
export const CronJobListSchema = listSchemaOf(CronJobSchema);
export type CronJobList = z.infer<typeof CronJobListSchema>;
