/**
 * apps/v1 StatefulSet and ControllerRevision (k8s.io/api/apps/v1 types.go), fields in Go struct
 * order. volumeClaimTemplates are core/v1 PersistentVolumeClaims, which this cluster does not
 * serve: they are kept as sent (loose objects) and defaulted as upstream defaults them.
 */
import { z } from "zod";
import { IntOrStringSchema } from "../../core/v1/service.ts";
import { LabelSelectorSchema } from "../../meta/v1/label-selector.ts";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { OptionalTimeStringSchema } from "../../meta/v1/type-meta.ts";
import { PodTemplateSpecSchema } from "./types.ts";

export const RollingUpdateStatefulSetStrategySchema = z.object({
  partition: z.number().int().optional(),
  maxUnavailable: IntOrStringSchema.optional(),
});
export type RollingUpdateStatefulSetStrategy = z.infer<typeof RollingUpdateStatefulSetStrategySchema>;

export const StatefulSetUpdateStrategySchema = z.object({
  /** RollingUpdate or OnDelete. */
  type: z.string().optional(),
  rollingUpdate: RollingUpdateStatefulSetStrategySchema.optional(),
});
export type StatefulSetUpdateStrategy = z.infer<typeof StatefulSetUpdateStrategySchema>;

export const StatefulSetPersistentVolumeClaimRetentionPolicySchema = z.object({
  whenDeleted: z.string().optional(),
  whenScaled: z.string().optional(),
});
export type StatefulSetPersistentVolumeClaimRetentionPolicy = z.infer<typeof StatefulSetPersistentVolumeClaimRetentionPolicySchema>;

export const StatefulSetOrdinalsSchema = z.object({ start: z.number().int().default(0) });
export type StatefulSetOrdinals = z.infer<typeof StatefulSetOrdinalsSchema>;

export const StatefulSetSpecSchema = z.object({
  replicas: z.number().int().optional(),
  selector: LabelSelectorSchema.optional(),
  template: PodTemplateSpecSchema.default({ metadata: {}, spec: { containers: [] } }),
  volumeClaimTemplates: z.array(z.record(z.string(), z.unknown())).optional(),
  serviceName: z.string().optional(),
  podManagementPolicy: z.string().optional(),
  updateStrategy: StatefulSetUpdateStrategySchema.optional(),
  revisionHistoryLimit: z.number().int().optional(),
  minReadySeconds: z.number().int().optional(),
  persistentVolumeClaimRetentionPolicy: StatefulSetPersistentVolumeClaimRetentionPolicySchema.optional(),
  ordinals: StatefulSetOrdinalsSchema.optional(),
});
export type StatefulSetSpec = z.infer<typeof StatefulSetSpecSchema>;

export const StatefulSetConditionSchema = z.object({
  type: z.string(),
  status: z.string(),
  lastTransitionTime: OptionalTimeStringSchema,
  reason: z.string().optional(),
  message: z.string().optional(),
});
export type StatefulSetCondition = z.infer<typeof StatefulSetConditionSchema>;

export const StatefulSetStatusSchema = z.object({
  observedGeneration: z.number().int().optional(),
  replicas: z.number().int().default(0),
  readyReplicas: z.number().int().optional(),
  currentReplicas: z.number().int().optional(),
  updatedReplicas: z.number().int().optional(),
  currentRevision: z.string().optional(),
  updateRevision: z.string().optional(),
  collisionCount: z.number().int().optional(),
  conditions: z.array(StatefulSetConditionSchema).optional(),
  availableReplicas: z.number().int().default(0),
});
export type StatefulSetStatus = z.infer<typeof StatefulSetStatusSchema>;

export const StatefulSetSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: StatefulSetSpecSchema.default({ template: { metadata: {}, spec: { containers: [] } } }),
  status: StatefulSetStatusSchema.optional(),
});
export type StatefulSet = z.infer<typeof StatefulSetSchema>;
export const StatefulSetListSchema = listSchemaOf(StatefulSetSchema);
export type StatefulSetList = z.infer<typeof StatefulSetListSchema>;

/** A ControllerRevision: an immutable snapshot (`data`, a runtime.RawExtension) of a controller's state. */
export const ControllerRevisionSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  data: z.unknown().optional(),
  revision: z.number().int().default(0),
});
export type ControllerRevision = z.infer<typeof ControllerRevisionSchema>;
export const ControllerRevisionListSchema = listSchemaOf(ControllerRevisionSchema);
export type ControllerRevisionList = z.infer<typeof ControllerRevisionListSchema>;
