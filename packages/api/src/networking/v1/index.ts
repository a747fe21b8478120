/** networking.k8s.io/v1: ServiceCIDR and IPAddress (KEP-1880). */
export * from "./constants.ts";
export * from "./types.ts";
export * from "./validation.ts";
