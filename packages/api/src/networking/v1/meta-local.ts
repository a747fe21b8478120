/**
 * Local stand-ins for the meta/v1 schemas this package needs (ObjectMeta,
 * ListMeta, Condition), written while src/meta/v1 was still empty. Not exported
 * from the package entry, so they never collide with meta/v1's own names; swap
 * the imports to "../../meta/v1/index.ts" once it provides them.
 */
import { z } from "zod";

export const LocalOwnerReferenceSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});

export const LocalObjectMetaSchema = z.object({
  name: z.string().optional(),
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  selfLink: z.string().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: z.number().int().optional(),
  creationTimestamp: z.string().nullable().optional(),
  deletionTimestamp: z.string().nullable().optional(),
  deletionGracePeriodSeconds: z.number().int().nullable().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  ownerReferences: z.array(LocalOwnerReferenceSchema).optional(),
  finalizers: z.array(z.string()).optional(),
  managedFields: z.array(z.record(z.string(), z.unknown())).optional(),
});
export type LocalObjectMeta = z.infer<typeof LocalObjectMetaSchema>;

export const LocalListMetaSchema = z.object({
  selfLink: z.string().optional(),
  resourceVersion: z.string().optional(),
  continue: z.string().optional(),
  remainingItemCount: z.number().int().optional(),
});

/** metav1.Condition: every field but observedGeneration is required on the wire. */
export const LocalConditionSchema = z.object({
  type: z.string(),
  status: z.enum(["True", "False", "Unknown"]),
  observedGeneration: z.number().int().optional(),
  lastTransitionTime: z.string(),
  reason: z.string(),
  message: z.string(),
});
