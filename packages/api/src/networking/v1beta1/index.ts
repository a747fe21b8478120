/**
 * networking.k8s.io/v1beta1: the same ServiceCIDR and IPAddress as v1, built by
 * the same factory with a different apiVersion. Validation and constants are
 * shared with v1 (re-exported here so a v1beta1 caller needs one import).
 */
import type { z } from "zod";
import { makeNetworkingSchemas } from "../v1/types.ts";

export const networkingV1beta1APIVersion = "networking.k8s.io/v1beta1";

const beta = makeNetworkingSchemas(networkingV1beta1APIVersion);

export const ServiceCIDRSpecSchema = beta.ServiceCIDRSpecSchema;
export const ServiceCIDRStatusSchema = beta.ServiceCIDRStatusSchema;
export const ServiceCIDRSchema = beta.ServiceCIDRSchema;
export const ServiceCIDRListSchema = beta.ServiceCIDRListSchema;
export const ParentReferenceSchema = beta.ParentReferenceSchema;
export const IPAddressSpecSchema = beta.IPAddressSpecSchema;
export const IPAddressSchema = beta.IPAddressSchema;
export const IPAddressListSchema = beta.IPAddressListSchema;

export type ServiceCIDRSpec = z.infer<typeof ServiceCIDRSpecSchema>;
export type ServiceCIDRStatus = z.infer<typeof ServiceCIDRStatusSchema>;
export type ServiceCIDR = z.infer<typeof ServiceCIDRSchema>;
export type ServiceCIDRList = z.infer<typeof ServiceCIDRListSchema>;
export type ParentReference = z.infer<typeof ParentReferenceSchema>;
export type IPAddressSpec = z.infer<typeof IPAddressSpecSchema>;
export type IPAddress = z.infer<typeof IPAddressSchema>;
export type IPAddressList = z.infer<typeof IPAddressListSchema>;

export * from "../v1/constants.ts";
export {
  validateServiceCIDRName,
  validateIPAddressName,
  validateServiceCIDR,
  validateServiceCIDRUpdate,
  validateServiceCIDRStatusUpdate,
  validateIPAddress,
  validateIPAddressUpdate,
} from "../v1/validation.ts";
