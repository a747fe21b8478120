/**
 * networking.k8s.io/v1beta1: the same ServiceCIDR and IPAddress as v1, built by
 * the same factory with a different apiVersion (distinct schema objects, so the
 * OpenAPI documents name them per version). Validation, constants and the
 * version-independent spec/status types are v1's, re-exported so a v1beta1
 * caller needs one import.
 */
import type { z } from "zod";
import { makeNetworkingSchemas } from "../v1/types.ts";

export const networkingV1beta1APIVersion = "networking.k8s.io/v1beta1";

export const {
  ServiceCIDRSpecSchema,
  ServiceCIDRStatusSchema,
  ServiceCIDRSchema,
  ServiceCIDRListSchema,
  ParentReferenceSchema,
  IPAddressSpecSchema,
  IPAddressSchema,
  IPAddressListSchema,
} = makeNetworkingSchemas(networkingV1beta1APIVersion);

export type { ServiceCIDRSpec, ServiceCIDRStatus, ParentReference, IPAddressSpec } from "../v1/types.ts";
export type ServiceCIDR = z.infer<typeof ServiceCIDRSchema>;
export type ServiceCIDRList = z.infer<typeof ServiceCIDRListSchema>;
export type IPAddress = z.infer<typeof IPAddressSchema>;
export type IPAddressList = z.infer<typeof IPAddressListSchema>;

export * from "../v1/constants.ts";
export * from "../v1/validation.ts";
