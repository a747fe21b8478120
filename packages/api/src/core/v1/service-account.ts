/** core/v1 ServiceAccount (k8s.io/api/core/v1 types.go). */
import { z } from "zod";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { ObjectReferenceSchema } from "./object-reference.ts";

/** core/v1 LocalObjectReference: a name in the same namespace. */
export const LocalObjectReferenceSchema = z.object({ name: z.string().optional() });
export type LocalObjectReference = z.infer<typeof LocalObjectReferenceSchema>;

/** Fields in Go struct order. */
export const ServiceAccountSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  secrets: z.array(ObjectReferenceSchema).optional(),
  imagePullSecrets: z.array(LocalObjectReferenceSchema).optional(),
  automountServiceAccountToken: z.boolean().optional(),
});
export type ServiceAccount = z.infer<typeof ServiceAccountSchema>;

export const ServiceAccountListSchema = listSchemaOf(ServiceAccountSchema);
export type ServiceAccountList = z.infer<typeof ServiceAccountListSchema>;

/** The ServiceAccount the serviceaccount controller keeps in every namespace. */
export const defaultServiceAccountName = "default";
