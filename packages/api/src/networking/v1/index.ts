/** networking.k8s.io/v1: ServiceCIDR and IPAddress (KEP-1880). */
export * from "./constants.ts";
export {
  makeNetworkingSchemas,
  networkingV1APIVersion,
  ServiceCIDRSpecSchema,
  ServiceCIDRStatusSchema,
  ServiceCIDRSchema,
  ServiceCIDRListSchema,
  ParentReferenceSchema,
  IPAddressSpecSchema,
  IPAddressSchema,
  IPAddressListSchema,
} from "./types.ts";
export type {
  ServiceCIDRSpec,
  ServiceCIDRStatus,
  ServiceCIDR,
  ServiceCIDRList,
  ParentReference,
  IPAddressSpec,
  IPAddress,
  IPAddressList,
} from "./types.ts";
export {
  validateServiceCIDRName,
  validateIPAddressName,
  validateServiceCIDR,
  validateServiceCIDRUpdate,
  validateServiceCIDRStatusUpdate,
  validateIPAddress,
  validateIPAddressUpdate,
} from "./validation.ts";
export type { ServiceCIDRShape, IPAddressShape } from "./validation.ts";
