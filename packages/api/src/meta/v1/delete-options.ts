/** meta/v1 DeleteOptions and Preconditions (the body of a DELETE). */
import { z } from "zod";

export const deletionPropagations = ["Orphan", "Background", "Foreground"] as const;
export type DeletionPropagation = (typeof deletionPropagations)[number];

/** Only `All` is defined upstream for dryRun. */
export const dryRunAll = "All";

export const PreconditionsSchema = z.object({
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
});
export type Preconditions = z.infer<typeof PreconditionsSchema>;

export const DeleteOptionsSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  gracePeriodSeconds: z.number().int().optional(),
  preconditions: PreconditionsSchema.optional(),
  orphanDependents: z.boolean().optional(),
  propagationPolicy: z.string().optional(),
  dryRun: z.array(z.string()).optional(),
  ignoreStoreReadErrorWithClusterBreakingPotential: z.boolean().optional(),
});
export type DeleteOptions = z.infer<typeof DeleteOptionsSchema>;
