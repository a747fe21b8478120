/**
 * meta/v1 Status, the body of every error response. The shape matches
 * `StatusObject` in src/errors (a compile-time check below keeps them in step).
 */
import { z } from "zod";
import type { StatusObject } from "../../errors/index.ts";
import { ListMetaSchema } from "./object-meta.ts";

export const StatusCauseSchema = z.object({
  reason: z.string().optional(),
  message: z.string().optional(),
  field: z.string().optional(),
});
// The StatusCause and StatusDetails types are those of src/errors (same shape).

export const StatusDetailsSchema = z.object({
  name: z.string().optional(),
  group: z.string().optional(),
  kind: z.string().optional(),
  uid: z.string().optional(),
  causes: z.array(StatusCauseSchema).optional(),
  retryAfterSeconds: z.number().int().optional(),
});

export const StatusSchema = z.object({
  kind: z.literal("Status"),
  apiVersion: z.string().optional(),
  metadata: ListMetaSchema.optional(),
  status: z.enum(["Success", "Failure"]).optional(),
  message: z.string().optional(),
  reason: z.string().optional(),
  details: StatusDetailsSchema.optional(),
  code: z.number().int().optional(),
});
export type Status = z.infer<typeof StatusSchema>;

// Every StatusObject the errors module renders is a valid meta/v1 Status.
const statusObjectIsStatus = (s: StatusObject): Status => s;
void statusObjectIsStatus;
