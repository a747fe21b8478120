/** metav1.LabelSelector (apimachinery pkg/apis/meta/v1 types.go), as ClusterRole aggregation rules carry it. */
import { z } from "zod";

export const LabelSelectorRequirementSchema = z.object({
  key: z.string(),
  /** In, NotIn, Exists or DoesNotExist. */
  operator: z.string(),
  values: z.array(z.string()).optional(),
});
export type LabelSelectorRequirement = z.infer<typeof LabelSelectorRequirementSchema>;

export const LabelSelectorSchema = z.object({
  matchLabels: z.record(z.string(), z.string()).optional(),
  matchExpressions: z.array(LabelSelectorRequirementSchema).optional(),
});
export type LabelSelector = z.infer<typeof LabelSelectorSchema>;
