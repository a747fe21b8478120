/**
 * networking.k8s.io/v1alpha1 (Kubernetes 1.27-1.30, served behind --runtime-config for the
 * kubectl of those releases): the same ServiceCIDR and IPAddress as v1, built by
 * the same factory with a different apiVersion (distinct schema objects, so the
 * OpenAPI documents name them per version). Validation, constants and the
 * version-independent spec/status types are v1's, re-exported so a v1alpha1
 * caller needs one import. The first releases' `spec.parentRef.uid` (removed from
 * k8s.io/api networking/v1alpha1 types.go before 1.30) is not part of this shape.
 */
import type { z } from "zod";
import { makeNetworkingSchemas } from "../v1/types.ts";

export const networkingV1alpha1APIVersion = "networking.k8s.io/v1alpha1";

export const {
  ServiceCIDRSpecSchema,
  ServiceCIDRStatusSchema,
  ServiceCIDRSchema,
  ServiceCIDRListSchema,
  ParentReferenceSchema,
  IPAddressSpecSchema,
  IPAddressSchema,
  IPAddressListSchema,
} = makeNetworkingSchemas(networkingV1alpha1APIVersion);

export type { ServiceCIDRSpec, ServiceCIDRStatus, ParentReference, IPAddressSpec } from "../v1/types.ts";
export type ServiceCIDR = z.infer<typeof ServiceCIDRSchema>;
export type ServiceCIDRList = z.infer<typeof ServiceCIDRListSchema>;
export type IPAddress = z.infer<typeof IPAddressSchema>;
export type IPAddressList = z.infer<typeof IPAddressListSchema>;

export * from "../v1/constants.ts";
export * from "../v1/validation.ts";
