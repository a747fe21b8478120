/** apps/v1 DaemonSet (k8s.io/api/apps/v1 types.go), fields in Go struct order. */
import { z } from "zod";
import { IntOrStringSchema } from "../../core/v1/service.ts";
import { LabelSelectorSchema } from "../../meta/v1/label-selector.ts";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { OptionalTimeStringSchema } from "../../meta/v1/type-meta.ts";
import { PodTemplateSpecSchema } from "./types.ts";

export const RollingUpdateDaemonSetSchema = z.object({
  maxUnavailable: IntOrStringSchema.optional(),
  maxSurge: IntOrStringSchema.optional(),
});
export type RollingUpdateDaemonSet = z.infer<typeof RollingUpdateDaemonSetSchema>;

export const DaemonSetUpdateStrategySchema = z.object({
  /** RollingUpdate or OnDelete. */
  type: z.string().optional(),
  rollingUpdate: RollingUpdateDaemonSetSchema.optional(),
});
export type DaemonSetUpdateStrategy = z.infer<typeof DaemonSetUpdateStrategySchema>;

export const DaemonSetSpecSchema = z.object({
  selector: LabelSelectorSchema.optional(),
  template: PodTemplateSpecSchema.default({ metadata: {}, spec: { containers: [] } }),
  updateStrategy: DaemonSetUpdateStrategySchema.optional(),
  minReadySeconds: z.number().int().optional(),
  revisionHistoryLimit: z.number().int().optional(),
});
export type DaemonSetSpec = z.infer<typeof DaemonSetSpecSchema>;

export const DaemonSetConditionSchema = z.object({
  type: z.string(),
  status: z.string(),
  lastTransitionTime: OptionalTimeStringSchema,
  reason: z.string().optional(),
  message: z.string().optional(),
});
export type DaemonSetCondition = z.infer<typeof DaemonSetConditionSchema>;

export const DaemonSetStatusSchema = z.object({
  currentNumberScheduled: z.number().int().default(0),
  numberMisscheduled: z.number().int().default(0),
  desiredNumberScheduled: z.number().int().default(0),
  numberReady: z.number().int().default(0),
  observedGeneration: z.number().int().optional(),
  updatedNumberScheduled: z.number().int().optional(),
  numberAvailable: z.number().int().optional(),
  numberUnavailable: z.number().int().optional(),
  collisionCount: z.number().int().optional(),
  conditions: z.array(DaemonSetConditionSchema).optional(),
});
export type DaemonSetStatus = z.infer<typeof DaemonSetStatusSchema>;

export const DaemonSetSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: DaemonSetSpecSchema.default({ template: { metadata: {}, spec: { containers: [] } } }),
  status: DaemonSetStatusSchema.optional(),
});
export type DaemonSet = z.infer<typeof DaemonSetSchema>;
export const DaemonSetListSchema = listSchemaOf(DaemonSetSchema);
export type DaemonSetList = z.infer<typeof DaemonSetListSchema>;
