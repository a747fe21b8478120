/**
 * `proxy.BaseServicePortInfo` (pkg/proxy/serviceport.go): the per-family view of
 * one Service port. Everything of the other family is dropped here, so the
 * proxiers never see it.
 */
import { formatCIDR, formatIP, parseCIDRSloppy, parseIPSloppy } from "@servicenet/api";
import type { IPFamily, Service, ServicePort } from "@servicenet/api";
import { servicePortNameString } from "./service-port-name.ts";
import type { ServicePortName } from "./service-port-name.ts";

export interface ServicePortInfo {
  readonly name: ServicePortName;
  /** `ServicePortName.String()`, cached as upstream does (`nameString`). */
  readonly nameString: string;
  readonly clusterIP: string;
  readonly port: number;
  readonly protocol: string;
  readonly nodePort: number;
  readonly loadBalancerVIPs: readonly string[];
  readonly sessionAffinityClientIP: boolean;
  readonly stickyMaxAgeSeconds: number;
  readonly externalIPs: readonly string[];
  readonly loadBalancerSourceRanges: readonly string[];
  readonly healthCheckNodePort: number;
  readonly externalPolicyLocal: boolean;
  readonly internalPolicyLocal: boolean;
  readonly hintsAnnotation: string;
}

/** Default ClientIP affinity timeout (`DefaultClientIPServiceAffinitySeconds`). */
export const defaultStickyMaxAgeSeconds = 10800;

/** `ShouldSkipService`: headless, IP-less and ExternalName Services are not proxied. */
export function shouldSkipService(svc: Service): boolean {
  const ip = svc.spec.clusterIP ?? "";
  return ip === "" || ip === "None" || svc.spec.type === "ExternalName";
}

/** `GetClusterIPByFamily`, including the fallback for Services without `ipFamilies` (version skew). */
export function getClusterIPByFamily(family: IPFamily, svc: Service): string {
  const families = svc.spec.ipFamilies ?? [];
  if (families.length === 0) {
    const ip = svc.spec.clusterIP ?? "";
    return parseIPSloppy(ip)?.family === family ? ip : "";
  }
  const ips = svc.spec.clusterIPs ?? [];
  for (let i = 0; i < families.length; i++) {
    if (families[i] === family && i < ips.length) return ips[i] ?? "";
  }
  return "";
}

/** `MapIPsByIPFamily(ips)[family]`, canonicalised (upstream keeps net.IP and prints it). */
export function ipsOfFamily(family: IPFamily, ips: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of ips) {
    const ip = parseIPSloppy(s.trim());
    if (ip !== null && ip.family === family) out.push(formatIP(ip));
  }
  return out;
}

/** `MapCIDRsByIPFamily(cidrs)[family]`; surrounding whitespace is tolerated as upstream does. */
export function cidrsOfFamily(family: IPFamily, cidrs: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of cidrs) {
    const c = parseCIDRSloppy(s.trim());
    if (c !== null && c.family === family) out.push(formatCIDR(c));
  }
  return out;
}

function loadBalancerVIPs(family: IPFamily, svc: Service): string[] {
  const out: string[] = [];
  for (const ing of svc.status?.loadBalancer?.ingress ?? []) {
    // IsVIPMode: an ingress with ipMode Proxy is handled by the load balancer, not by us.
    if (!ing.ip || ing.ipMode === "Proxy") continue;
    out.push(...ipsOfFamily(family, [ing.ip]));
  }
  return out;
}

/** `NeedsHealthCheck`: LoadBalancer with externalTrafficPolicy Local. */
function needsHealthCheck(svc: Service): boolean {
  return svc.spec.type === "LoadBalancer" && svc.spec.externalTrafficPolicy === "Local";
}

/** `newBaseServiceInfo(service, ipFamily, port)` for one port of a Service. */
export function newServicePortInfo(svc: Service, family: IPFamily, clusterIP: string, port: ServicePort): ServicePortInfo {
  const name: ServicePortName = {
    namespace: svc.metadata.namespace ?? "",
    name: svc.metadata.name ?? "",
    port: port.name ?? "",
    protocol: port.protocol ?? "TCP",
  };
  const affinity = svc.spec.sessionAffinity === "ClientIP";
  const annotations = svc.metadata.annotations ?? {};
  const ip = parseIPSloppy(clusterIP);
  return Object.freeze({
    name,
    nameString: servicePortNameString(name),
    clusterIP: ip === null ? clusterIP : formatIP(ip),
    port: port.port,
    protocol: name.protocol,
    nodePort: port.nodePort ?? 0,
    loadBalancerVIPs: loadBalancerVIPs(family, svc),
    sessionAffinityClientIP: affinity,
    stickyMaxAgeSeconds: affinity ? (svc.spec.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? defaultStickyMaxAgeSeconds) : 0,
    externalIPs: ipsOfFamily(family, svc.spec.externalIPs ?? []),
    loadBalancerSourceRanges: cidrsOfFamily(family, svc.spec.loadBalancerSourceRanges ?? []),
    healthCheckNodePort: needsHealthCheck(svc) ? (svc.spec.healthCheckNodePort ?? 0) : 0,
    externalPolicyLocal: svc.spec.externalTrafficPolicy === "Local" && externallyAccessibleType(svc),
    internalPolicyLocal: svc.spec.internalTrafficPolicy === "Local",
    // The deprecated annotation wins, as upstream reads it first.
    hintsAnnotation: annotations["service.kubernetes.io/topology-aware-hints"] ?? annotations["service.kubernetes.io/topology-mode"] ?? "",
  });
}

/** `apiservice.ExternallyAccessible`: only such Services honour externalTrafficPolicy Local. */
function externallyAccessibleType(svc: Service): boolean {
  const t = svc.spec.type ?? "ClusterIP";
  return t === "NodePort" || t === "LoadBalancer" || (t === "ClusterIP" && (svc.spec.externalIPs ?? []).length > 0);
}

/** `ServicePort.ExternallyAccessible()`: reachable via a NodePort, LB VIP or externalIP. */
export function externallyAccessible(info: ServicePortInfo): boolean {
  return info.nodePort !== 0 || info.loadBalancerVIPs.length > 0 || info.externalIPs.length > 0;
}

/**
 * `UsesClusterEndpoints`: some traffic of this port uses the Cluster policy. Any
 * externally accessible port does, even with externalTrafficPolicy Local: pod and
 * node traffic to its external addresses short-circuits to the Cluster chain.
 */
export function usesClusterEndpoints(info: ServicePortInfo): boolean {
  return !info.internalPolicyLocal || externallyAccessible(info);
}

/** `UsesLocalEndpoints`: some traffic of this port uses the Local policy. */
export function usesLocalEndpoints(info: ServicePortInfo): boolean {
  return info.internalPolicyLocal || (info.externalPolicyLocal && externallyAccessible(info));
}
