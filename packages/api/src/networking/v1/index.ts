/** networking.k8s.io/v1: ServiceCIDR and IPAddress (KEP-1880), Ingress, IngressClass and NetworkPolicy. */
export * from "./constants.ts";
export * from "./types.ts";
export * from "./validation.ts";
export * from "./ingress-types.ts";
export * from "./network-policy-types.ts";
export * from "./defaults.ts";
export * from "./ingress-validation.ts";
export * from "./ingress-class-validation.ts";
export * from "./network-policy-validation.ts";
