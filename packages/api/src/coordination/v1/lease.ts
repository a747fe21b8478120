/**
 * coordination.k8s.io/v1 Lease (k8s.io/api/coordination/v1 types.go): the schema request bodies
 * are decoded with (unknown fields are reported under fieldValidation) and readers share.
 */
import { z } from "zod";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { MicroTimeSchema } from "../../meta/v1/type-meta.ts";

/** LeaseSpec, fields in Go struct order. */
export const LeaseSpecSchema = z.object({
  holderIdentity: z.string().optional(),
  leaseDurationSeconds: z.number().int().optional(),
  acquireTime: MicroTimeSchema.optional(),
  renewTime: MicroTimeSchema.optional(),
  leaseTransitions: z.number().int().optional(),
  /** CoordinatedLeaseStrategy; kept only with the CoordinatedLeaderElection gate (off in 1.33). */
  strategy: z.string().optional(),
  preferredHolder: z.string().optional(),
});
export type LeaseSpec = z.infer<typeof LeaseSpecSchema>;

export const LeaseSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: LeaseSpecSchema.optional(),
});
export type Lease = z.infer<typeof LeaseSchema>;

export const LeaseListSchema = listSchemaOf(LeaseSchema);
export type LeaseList = z.infer<typeof LeaseListSchema>;
