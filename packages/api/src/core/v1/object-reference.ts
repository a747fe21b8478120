/** core/v1 ObjectReference (Endpoints `targetRef`, Event `involvedObject`). */
import { z } from "zod";
import { OptionalTimeStringSchema } from "../../meta/v1/type-meta.ts";

export const ObjectReferenceSchema = z.object({
  kind: z.string().optional(),
  namespace: z.string().optional(),
  name: z.string().optional(),
  uid: z.string().optional(),
  apiVersion: z.string().optional(),
  resourceVersion: z.string().optional(),
  fieldPath: z.string().optional(),
});
export type ObjectReference = z.infer<typeof ObjectReferenceSchema>;

/** A `{type,status,...}` condition of the older core/v1 style (Pod, Node, Namespace). */
export const coreConditionFields = {
  type: z.string(),
  status: z.string(),
  lastTransitionTime: OptionalTimeStringSchema,
  reason: z.string().optional(),
  message: z.string().optional(),
};

/** core/v1 TypedLocalObjectReference (an Ingress backend's `resource`): an object in the same namespace. */
export const TypedLocalObjectReferenceSchema = z.object({
  apiGroup: z.string().optional(),
  kind: z.string().default(""),
  name: z.string().default(""),
});
export type TypedLocalObjectReference = z.infer<typeof TypedLocalObjectReferenceSchema>;
