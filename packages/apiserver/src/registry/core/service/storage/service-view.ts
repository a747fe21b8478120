/**
 * The Service types allocation works on (@servicenet/api core/v1), under the
 * names this module has always used. Missing values mean what Go's zero
 * values mean ("" type, 0 nodePort, nil slices).
 */
import type { IPFamily, Service, ServicePort, ServiceSpec } from "@servicenet/api";

export type ServicePortView = ServicePort;
export type ServiceSpecView = ServiceSpec;
export type ServiceView = Service;

export const ServiceTypes = {
  ClusterIP: "ClusterIP",
  NodePort: "NodePort",
  LoadBalancer: "LoadBalancer",
  ExternalName: "ExternalName",
} as const;

export const IPFamilyPolicies = {
  SingleStack: "SingleStack",
  PreferDualStack: "PreferDualStack",
  RequireDualStack: "RequireDualStack",
} as const;

/** The value of `clusterIP` for headless services. */
export const ClusterIPNone = "None";

/** The spec of `svc`, created empty if absent so that callers can write to it. */
export function specOf(svc: ServiceView): ServiceSpecView {
  svc.spec ??= {};
  return svc.spec;
}

/** The Service's name, for error messages. */
export function nameOf(svc: ServiceView): string {
  return svc.metadata?.name ?? "";
}

/** The other of the two families. */
export function otherFamily(f: string): IPFamily {
  return f === "IPv4" ? "IPv6" : "IPv4";
}
