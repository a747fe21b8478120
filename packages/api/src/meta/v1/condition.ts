/** metav1.Condition, the standard condition shape (used by ServiceCIDR, Service status). */
import { z } from "zod";
import { NullableTimeSchema } from "./type-meta.ts";

export const conditionStatuses = ["True", "False", "Unknown"] as const;
export type ConditionStatus = (typeof conditionStatuses)[number];

export const ConditionSchema = z.object({
  type: z.string(),
  status: z.string(),
  observedGeneration: z.number().int().optional(),
  // Go's zero time when absent, written back as null (the field has no omitempty).
  lastTransitionTime: NullableTimeSchema,
  reason: z.string(),
  message: z.string(),
});
export type Condition = z.infer<typeof ConditionSchema>;

/** Finds a condition by type (apimachinery `meta.FindStatusCondition`). */
export function findCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * Sets or replaces a condition (apimachinery `meta.SetStatusCondition`):
 * `lastTransitionTime` changes only when the status changes. Returns true if anything changed.
 */
export function setCondition(conditions: Condition[], next: Condition): boolean {
  const i = conditions.findIndex((c) => c.type === next.type);
  if (i < 0) {
    conditions.push(next);
    return true;
  }
  const cur = conditions[i]!;
  const changed =
    cur.status !== next.status ||
    cur.reason !== next.reason ||
    cur.message !== next.message ||
    cur.observedGeneration !== next.observedGeneration;
  conditions[i] = { ...next, lastTransitionTime: cur.status === next.status ? cur.lastTransitionTime : next.lastTransitionTime };
  return changed;
}
