/** core/v1 Binding: the body of POST pods/{name}/binding (a scheduler's decision). */
import { z } from "zod";
import { ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { ObjectReferenceSchema } from "./object-reference.ts";

export const BindingSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  target: ObjectReferenceSchema,
});
export type Binding = z.infer<typeof BindingSchema>;
