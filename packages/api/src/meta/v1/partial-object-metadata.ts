/** PartialObjectMetadata(List): `Accept: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1`. */
import { z } from "zod";
import { ListMetaSchema, ObjectMetaSchema } from "./object-meta.ts";

export const PartialObjectMetadataSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.optional(),
});
export type PartialObjectMetadata = z.infer<typeof PartialObjectMetadataSchema>;

export const PartialObjectMetadataListSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ListMetaSchema.optional(),
  items: z.array(PartialObjectMetadataSchema),
});
export type PartialObjectMetadataList = z.infer<typeof PartialObjectMetadataListSchema>;
