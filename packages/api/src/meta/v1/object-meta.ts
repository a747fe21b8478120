/** ObjectMeta, OwnerReference and ManagedFieldsEntry (meta/v1, exact JSON names). */
import { z } from "zod";
import { OptionalTimeSchema, TimeSchema } from "./type-meta.ts";

/** Points at the object that owns this one (garbage collection). */
export const OwnerReferenceSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});
export type OwnerReference = z.infer<typeof OwnerReferenceSchema>;

/**
 * One manager's field set (server-side apply). `fieldsV1` is an opaque
 * structured-merge-diff document, so its content is kept as it came.
 */
export const ManagedFieldsEntrySchema = z.object({
  manager: z.string().optional(),
  operation: z.string().optional(),
  apiVersion: z.string().optional(),
  time: TimeSchema.optional(),
  fieldsType: z.string().optional(),
  fieldsV1: z.record(z.string(), z.unknown()).optional(),
  subresource: z.string().optional(),
});
export type ManagedFieldsEntry = z.infer<typeof ManagedFieldsEntrySchema>;

/** Metadata every persisted object carries. */
export const ObjectMetaSchema = z.object({
  name: z.string().optional(),
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  selfLink: z.string().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: z.number().int().optional(),
  creationTimestamp: OptionalTimeSchema,
  deletionTimestamp: TimeSchema.optional(),
  deletionGracePeriodSeconds: z.number().int().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  ownerReferences: z.array(OwnerReferenceSchema).optional(),
  finalizers: z.array(z.string()).optional(),
  managedFields: z.array(ManagedFieldsEntrySchema).optional(),
});
export type ObjectMeta = z.infer<typeof ObjectMetaSchema>;

/** List metadata: `resourceVersion` of the list and the `continue` token. */
export const ListMetaSchema = z.object({
  selfLink: z.string().optional(),
  resourceVersion: z.string().optional(),
  continue: z.string().optional(),
  remainingItemCount: z.number().int().optional(),
});
export type ListMeta = z.infer<typeof ListMetaSchema>;

/** The `<Kind>List` wrapper core/v1 kinds share: loose apiVersion/kind, ListMeta, `items`. */
export function listSchemaOf<T extends z.ZodType>(item: T) {
  return z.object({
    apiVersion: z.string().optional(),
    kind: z.string().optional(),
    metadata: ListMetaSchema.default({}),
    items: z.array(item),
  });
}

/** Finalizers the garbage collector understands (metav1.FinalizerOrphanDependents/DeleteDependents). */
export const finalizerOrphanDependents = "orphan";
export const finalizerDeleteDependents = "foregroundDeletion";
