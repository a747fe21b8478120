/**
 * apps/v1 Deployment and ReplicaSet (k8s.io/api/apps/v1 types.go), fields in Go struct order. The
 * pod template reuses core/v1's PodSpec (a loose object: fields not modelled round-trip as sent).
 */
import { z } from "zod";
import { IntOrStringSchema } from "../../core/v1/service.ts";
import { PodSpecSchema } from "../../core/v1/pod.ts";
import { LabelSelectorSchema } from "../../meta/v1/label-selector.ts";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { OptionalTimeStringSchema } from "../../meta/v1/type-meta.ts";

/** core/v1 PodTemplateSpec: the Pods a controller creates. */
export const PodTemplateSpecSchema = z.object({
  metadata: ObjectMetaSchema.default({}),
  spec: PodSpecSchema.default({ containers: [] }),
});
export type PodTemplateSpec = z.infer<typeof PodTemplateSpecSchema>;

export const RollingUpdateDeploymentSchema = z.object({
  maxUnavailable: IntOrStringSchema.optional(),
  maxSurge: IntOrStringSchema.optional(),
});
export type RollingUpdateDeployment = z.infer<typeof RollingUpdateDeploymentSchema>;

export const DeploymentStrategySchema = z.object({
  /** Recreate or RollingUpdate. */
  type: z.string().optional(),
  rollingUpdate: RollingUpdateDeploymentSchema.optional(),
});
export type DeploymentStrategy = z.infer<typeof DeploymentStrategySchema>;

export const DeploymentSpecSchema = z.object({
  replicas: z.number().int().optional(),
  selector: LabelSelectorSchema.optional(),
  template: PodTemplateSpecSchema.default({ metadata: {}, spec: { containers: [] } }),
  strategy: DeploymentStrategySchema.optional(),
  minReadySeconds: z.number().int().optional(),
  revisionHistoryLimit: z.number().int().optional(),
  paused: z.boolean().optional(),
  progressDeadlineSeconds: z.number().int().optional(),
});
export type DeploymentSpec = z.infer<typeof DeploymentSpecSchema>;

/** DeploymentCondition and ReplicaSetCondition (lastUpdateTime is the Deployment's only). */
export const DeploymentConditionSchema = z.object({
  type: z.string(),
  status: z.string(),
  lastUpdateTime: OptionalTimeStringSchema,
  lastTransitionTime: OptionalTimeStringSchema,
  reason: z.string().optional(),
  message: z.string().optional(),
});
export type DeploymentCondition = z.infer<typeof DeploymentConditionSchema>;

export const DeploymentStatusSchema = z.object({
  observedGeneration: z.number().int().optional(),
  replicas: z.number().int().optional(),
  updatedReplicas: z.number().int().optional(),
  readyReplicas: z.number().int().optional(),
  availableReplicas: z.number().int().optional(),
  unavailableReplicas: z.number().int().optional(),
  terminatingReplicas: z.number().int().optional(),
  conditions: z.array(DeploymentConditionSchema).optional(),
  collisionCount: z.number().int().optional(),
});
export type DeploymentStatus = z.infer<typeof DeploymentStatusSchema>;

export const DeploymentSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: DeploymentSpecSchema.default({ template: { metadata: {}, spec: { containers: [] } } }),
  status: DeploymentStatusSchema.optional(),
});
export type Deployment = z.infer<typeof DeploymentSchema>;
export const DeploymentListSchema = listSchemaOf(DeploymentSchema);
export type DeploymentList = z.infer<typeof DeploymentListSchema>;

export const ReplicaSetSpecSchema = z.object({
  replicas: z.number().int().optional(),
  minReadySeconds: z.number().int().optional(),
  selector: LabelSelectorSchema.optional(),
  template: PodTemplateSpecSchema.optional(),
});
export type ReplicaSetSpec = z.infer<typeof ReplicaSetSpecSchema>;

export const ReplicaSetConditionSchema = DeploymentConditionSchema.omit({ lastUpdateTime: true });
export type ReplicaSetCondition = z.infer<typeof ReplicaSetConditionSchema>;

export const ReplicaSetStatusSchema = z.object({
  replicas: z.number().int().default(0),
  fullyLabeledReplicas: z.number().int().optional(),
  readyReplicas: z.number().int().optional(),
  availableReplicas: z.number().int().optional(),
  terminatingReplicas: z.number().int().optional(),
  observedGeneration: z.number().int().optional(),
  conditions: z.array(ReplicaSetConditionSchema).optional(),
});
export type ReplicaSetStatus = z.infer<typeof ReplicaSetStatusSchema>;

export const ReplicaSetSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: ReplicaSetSpecSchema.default({}),
  status: ReplicaSetStatusSchema.optional(),
});
export type ReplicaSet = z.infer<typeof ReplicaSetSchema>;
export const ReplicaSetListSchema = listSchemaOf(ReplicaSetSchema);
export type ReplicaSetList = z.infer<typeof ReplicaSetListSchema>;
