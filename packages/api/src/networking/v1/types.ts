/**
 * ServiceCIDR and IPAddress (networking.k8s.io), built by one factory per API
 * version so v1 and v1beta1 share every field and differ only in apiVersion.
 * JSON field names are exactly Kubernetes'; fields that are `omitempty` in Go
 * are optional here, and validation (not the schema) reports missing required
 * ones with Kubernetes' messages.
 */
import { z } from "zod";
import { ConditionSchema, conditionStatuses, ListMetaSchema, ObjectMetaSchema } from "../../meta/v1/index.ts";

/**
 * metav1.Condition with `status` limited to True/False/Unknown, as the
 * ServiceCIDR CRD-style enum marker says; meta/v1's ConditionSchema keeps
 * `status` a plain string for the kinds (Service) that do not restrict it.
 */
const ServiceCIDRConditionSchema = ConditionSchema.extend({ status: z.enum(conditionStatuses) });

/** Builds the ServiceCIDR / IPAddress schemas for one networking.k8s.io version. */
export function makeNetworkingSchemas<V extends string>(apiVersion: V) {
  const ServiceCIDRSpecSchema = z.object({
    /** Up to two CIDRs, one per family; immutable except the 1 -> 2 append (since 1.33). */
    cidrs: z.array(z.string()).optional(),
  });
  const ServiceCIDRStatusSchema = z.object({
    conditions: z.array(ServiceCIDRConditionSchema).optional(),
  });
  const ServiceCIDRSchema = z.object({
    apiVersion: z.literal(apiVersion).optional(),
    kind: z.literal("ServiceCIDR").optional(),
    metadata: ObjectMetaSchema.default({}),
    spec: ServiceCIDRSpecSchema.default({}),
    status: ServiceCIDRStatusSchema.optional(),
  });
  const ServiceCIDRListSchema = z.object({
    apiVersion: z.literal(apiVersion).optional(),
    kind: z.literal("ServiceCIDRList").optional(),
    metadata: ListMetaSchema.default({}),
    items: z.array(ServiceCIDRSchema),
  });

  /** The object an IPAddress belongs to; there is no uid field. */
  const ParentReferenceSchema = z.object({
    group: z.string().optional(),
    resource: z.string().optional(),
    namespace: z.string().optional(),
    name: z.string().optional(),
  });
  const IPAddressSpecSchema = z.object({
    parentRef: ParentReferenceSchema.optional(),
  });
  const IPAddressSchema = z.object({
    apiVersion: z.literal(apiVersion).optional(),
    kind: z.literal("IPAddress").optional(),
    metadata: ObjectMetaSchema.default({}),
    spec: IPAddressSpecSchema.default({}),
  });
  const IPAddressListSchema = z.object({
    apiVersion: z.literal(apiVersion).optional(),
    kind: z.literal("IPAddressList").optional(),
    metadata: ListMetaSchema.default({}),
    items: z.array(IPAddressSchema),
  });

  return {
    ServiceCIDRSpecSchema,
    ServiceCIDRStatusSchema,
    ServiceCIDRSchema,
    ServiceCIDRListSchema,
    ParentReferenceSchema,
    IPAddressSpecSchema,
    IPAddressSchema,
    IPAddressListSchema,
  };
}

export const networkingV1APIVersion = "networking.k8s.io/v1";

export const {
  ServiceCIDRSpecSchema,
  ServiceCIDRStatusSchema,
  ServiceCIDRSchema,
  ServiceCIDRListSchema,
  ParentReferenceSchema,
  IPAddressSpecSchema,
  IPAddressSchema,
  IPAddressListSchema,
} = makeNetworkingSchemas(networkingV1APIVersion);

// The spec, status and reference shapes carry no apiVersion, so v1beta1 shares these types.
export type ServiceCIDRSpec = z.infer<typeof ServiceCIDRSpecSchema>;
export type ServiceCIDRStatus = z.infer<typeof ServiceCIDRStatusSchema>;
export type ParentReference = z.infer<typeof ParentReferenceSchema>;
export type IPAddressSpec = z.infer<typeof IPAddressSpecSchema>;
export type ServiceCIDR = z.infer<typeof ServiceCIDRSchema>;
export type ServiceCIDRList = z.infer<typeof ServiceCIDRListSchema>;
export type IPAddress = z.infer<typeof IPAddressSchema>;
export type IPAddressList = z.infer<typeof IPAddressListSchema>;
