/** Small predicates of upstream storage/alloc.go and storage.go, on @servicenet/api's Service. */
import { clusterIPNone, isIPv4String, isIPv6String, type Service, type ServiceSpec, serviceTypes } from "@servicenet/api";

function spec(svc: Service): ServiceSpec {
  return svc.spec ?? {};
}

/** ExternalName services have no cluster IP ("None" counts as a value). */
export function needsClusterIP(svc: Service): boolean {
  return spec(svc).type !== serviceTypes.ExternalName;
}

/** NodePort and LoadBalancer services have node ports. */
export function needsNodePort(svc: Service): boolean {
  const t = spec(svc).type;
  return t === serviceTypes.NodePort || t === serviceTypes.LoadBalancer;
}

/** LoadBalancer services with externalTrafficPolicy Local get a health-check node port (`apiservice.NeedsHealthCheck`). */
export function needsHealthCheck(svc: Service): boolean {
  const s = spec(svc);
  return s.type === serviceTypes.LoadBalancer && s.externalTrafficPolicy === "Local";
}

/** True if clusterIPs[0] is "None". */
export function isHeadlessClusterIPs(svc: Service): boolean {
  const ips = spec(svc).clusterIPs;
  return ips !== undefined && ips.length > 0 && ips[0] === clusterIPNone;
}

/** True for selectorless services (nil or empty selector). */
export function hasEmptySelector(svc: Service): boolean {
  const sel = spec(svc).selector;
  return sel === undefined || sel === null || Object.keys(sel).length === 0;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** alloc.go `sameClusterIPs`: the plural field only. */
export function sameClusterIPs(lhs: Service, rhs: Service): boolean {
  return sameList(spec(lhs).clusterIPs, spec(rhs).clusterIPs);
}

/** `sameIPFamilies`. */
export function sameIPFamilies(lhs: Service, rhs: Service): boolean {
  return sameList(spec(lhs).ipFamilies, spec(rhs).ipFamilies);
}

/** The policy or "" when unset (callers compare to exact values). */
export function getIPFamilyPolicy(svc: Service): string {
  return spec(svc).ipFamilyPolicy ?? "";
}

/** True if `after` has a non-empty clusterIPs list shorter than `before`'s. */
export function reducedClusterIPs(after: Service, before: Service): boolean {
  const n = spec(after).clusterIPs?.length ?? 0;
  return n !== 0 && n < (spec(before).clusterIPs?.length ?? 0);
}

/** True if `after` has a non-empty ipFamilies list shorter than `before`'s. */
export function reducedIPFamilies(after: Service, before: Service): boolean {
  const n = spec(after).ipFamilies?.length ?? 0;
  return n !== 0 && n < (spec(before).ipFamilies?.length ?? 0);
}

/** The family of an IP string, or "unknown" (alloc.go `familyOf`). */
export function familyOf(ip: string): string {
  if (isIPv4String(ip)) return "IPv4";
  if (isIPv6String(ip)) return "IPv6";
  return "unknown";
}

/** NodePort services always get node ports; LoadBalancers unless allocateLoadBalancerNodePorts is false. */
export function shouldAllocateNodePorts(svc: Service): boolean {
  const s = spec(svc);
  if (s.type === serviceTypes.NodePort) return true;
  // Upstream dereferences the pointer; defaulting sets it to true for LoadBalancers.
  if (s.type === serviceTypes.LoadBalancer) return s.allocateLoadBalancerNodePorts !== false;
  return false;
}

/** Every non-zero nodePort of the Service, in port order (`collectServiceNodePorts`). */
export function collectServiceNodePorts(svc: Service): number[] {
  return (spec(svc).ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => n !== 0);
}

/** The nodePort requested by any port entry with the same port number, or 0 (`findRequestedNodePort`). */
export function findRequestedNodePort(port: number, ports: ServiceSpec["ports"]): number {
  for (const p of ports ?? []) {
    if ((p.port ?? 0) === port && (p.nodePort ?? 0) !== 0) return p.nodePort!;
  }
  return 0;
}

/**
 * `isMatchingPreferDualStackClusterIPFields`: an update that keeps an explicit
 * PreferDualStack and identical clusterIPs and ipFamilies is left alone, so a
 * cluster gaining or losing a family never upgrades or downgrades it.
 */
export function isMatchingPreferDualStackClusterIPFields(after: Service, before: Service | null): boolean {
  if (before === null) return false;
  const s = spec(after);
  const o = spec(before);
  if (s.ipFamilyPolicy === undefined) return false;
  if (o.type !== s.type) return false;
  if (s.type !== serviceTypes.ClusterIP && s.type !== serviceTypes.NodePort && s.type !== serviceTypes.LoadBalancer) return false;
  if (s.ipFamilyPolicy !== "PreferDualStack") return false;
  if (o.ipFamilyPolicy !== undefined && o.ipFamilyPolicy !== "PreferDualStack") return false;
  return sameClusterIPs(before, after) && sameIPFamilies(before, after);
}
