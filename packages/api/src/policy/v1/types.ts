/**
 * policy/v1 PodDisruptionBudget and Eviction (k8s.io/api/policy/v1 types.go), fields in Go struct
 * order, and the constants of pkg/apis/policy/types.go the eviction subresource and the disruption
 * controller share.
 */
import { z } from "zod";
import { IntOrStringSchema } from "../../core/v1/service.ts";
import { ConditionSchema } from "../../meta/v1/condition.ts";
import { DeleteOptionsSchema } from "../../meta/v1/delete-options.ts";
import { LabelSelectorSchema } from "../../meta/v1/label-selector.ts";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { TimeSchema } from "../../meta/v1/type-meta.ts";

/** UnhealthyPodEvictionPolicyType values. */
export const ifHealthyBudget = "IfHealthyBudget";
export const alwaysAllow = "AlwaysAllow";

/** The PodDisruptionBudget condition, its reasons, and the Status cause the eviction 429 carries. */
export const disruptionAllowedCondition = "DisruptionAllowed";
export const syncFailedReason = "SyncFailed";
export const sufficientPodsReason = "SufficientPods";
export const insufficientPodsReason = "InsufficientPods";
export const disruptionBudgetCause = "DisruptionBudget";

export const PodDisruptionBudgetSpecSchema = z.object({
  minAvailable: IntOrStringSchema.optional(),
  selector: LabelSelectorSchema.optional(),
  maxUnavailable: IntOrStringSchema.optional(),
  unhealthyPodEvictionPolicy: z.string().optional(),
});
export type PodDisruptionBudgetSpec = z.infer<typeof PodDisruptionBudgetSpecSchema>;

/** The four counts have no omitempty: the zero status still serializes them. */
export const PodDisruptionBudgetStatusSchema = z.object({
  observedGeneration: z.number().int().optional(),
  disruptedPods: z.record(z.string(), TimeSchema).optional(),
  disruptionsAllowed: z.number().int().default(0),
  currentHealthy: z.number().int().default(0),
  desiredHealthy: z.number().int().default(0),
  expectedPods: z.number().int().default(0),
  conditions: z.array(ConditionSchema).optional(),
});
export type PodDisruptionBudgetStatus = z.infer<typeof PodDisruptionBudgetStatusSchema>;

export const PodDisruptionBudgetSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: PodDisruptionBudgetSpecSchema.default({}),
  status: PodDisruptionBudgetStatusSchema.optional(),
});
export type PodDisruptionBudget = z.infer<typeof PodDisruptionBudgetSchema>;
export const PodDisruptionBudgetListSchema = listSchemaOf(PodDisruptionBudgetSchema);
export type PodDisruptionBudgetList = z.infer<typeof PodDisruptionBudgetListSchema>;

/** The zero PodDisruptionBudgetStatus as Go serializes it. */
export function zeroPodDisruptionBudgetStatus(): PodDisruptionBudgetStatus {
  return { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
}

/** Eviction, the body of `pods/eviction` (policy/v1 and the identical policy/v1beta1). */
export const EvictionSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  deleteOptions: DeleteOptionsSchema.optional(),
});
export type Eviction = z.infer<typeof EvictionSchema>;
