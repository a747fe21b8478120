/**
 * The Service fields allocation reads and writes, as a structural view: the
 * `Service` type of @servicenet/api is assignable to it, and the allocation
 * core stays independent of the rest of the schema. Missing values mean what
 * Go's zero values mean ("" type, 0 nodePort, nil slices).
 */
import type { IPFamily } from "@servicenet/api";

export interface ServicePortView {
  name?: string;
  protocol?: string;
  port?: number;
  nodePort?: number;
}

export interface ServiceSpecView {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  selector?: Record<string, string> | null;
  ports?: ServicePortView[];
  healthCheckNodePort?: number;
  externalTrafficPolicy?: string;
  allocateLoadBalancerNodePorts?: boolean;
}

export interface ServiceView {
  metadata?: { name?: string; namespace?: string };
  spec?: ServiceSpecView;
}

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
