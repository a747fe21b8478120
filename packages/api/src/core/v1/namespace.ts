/** core/v1 Namespace. */
import { z } from "zod";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { coreConditionFields } from "./object-reference.ts";

export const NamespaceSpecSchema = z.object({ finalizers: z.array(z.string()).optional() });
export type NamespaceSpec = z.infer<typeof NamespaceSpecSchema>;

export const NamespaceConditionSchema = z.object(coreConditionFields);
export type NamespaceCondition = z.infer<typeof NamespaceConditionSchema>;

export const NamespaceStatusSchema = z.object({
  phase: z.string().optional(),
  conditions: z.array(NamespaceConditionSchema).optional(),
});
export type NamespaceStatus = z.infer<typeof NamespaceStatusSchema>;

export const NamespaceSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: NamespaceSpecSchema.optional(),
  status: NamespaceStatusSchema.optional(),
});
export type Namespace = z.infer<typeof NamespaceSchema>;

export const NamespaceListSchema = listSchemaOf(NamespaceSchema);
export type NamespaceList = z.infer<typeof NamespaceListSchema>;
