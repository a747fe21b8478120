/** autoscaling/v1 Scale (k8s.io/api/autoscaling/v1 types.go): the `scale` subresource's body. */
import { z } from "zod";
import { ObjectMetaSchema } from "../../meta/v1/object-meta.ts";

export const ScaleSpecSchema = z.object({ replicas: z.number().int().optional() });
export type ScaleSpec = z.infer<typeof ScaleSpecSchema>;

export const ScaleStatusSchema = z.object({
  replicas: z.number().int().default(0),
  /** The label selector in its string form (`app=web`), as HPA reads it. */
  selector: z.string().optional(),
});
export type ScaleStatus = z.infer<typeof ScaleStatusSchema>;

export const ScaleSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: ScaleSpecSchema.default({}),
  status: ScaleStatusSchema.optional(),
});
export type Scale = z.infer<typeof ScaleSchema>;
