/**
 * ServiceCIDR containment helpers (upstream pkg/api/servicecidr/servicecidr.go), shared by the
 * IPAddress repair loop, the allocators and the controller-manager's ServiceCIDR controller.
 * Addresses and prefixes are @servicenet/api values (BigInt, IPv4 never IPv4-mapped), so an IPv4
 * address is never "inside" an IPv6 prefix.
 */
import { cidrsOverlap, parseCIDR, prefixContainsIP, serviceCIDRConditionReady, type CIDR, type IP } from "@servicenet/api";
import type { KubeObject } from "../../storage/index.ts";

/** The part of a Lister these helpers read. */
export interface ServiceCIDRLister {
  list(): KubeObject[];
}

/** `spec.cidrs` of a stored ServiceCIDR ([] when absent). */
export function serviceCIDRStrings(sc: KubeObject): string[] {
  const cidrs = (sc["spec"] as { cidrs?: unknown } | undefined)?.cidrs;
  return Array.isArray(cidrs) ? cidrs.filter((c): c is string => typeof c === "string") : [];
}

/** The parsed `spec.cidrs` of a ServiceCIDR; unparseable entries are skipped (they passed validation). */
export function serviceCIDRPrefixes(sc: KubeObject): CIDR[] {
  const out: CIDR[] = [];
  for (const s of serviceCIDRStrings(sc)) {
    const c = parseCIDR(s);
    if (c !== null) out.push(c);
  }
  return out;
}

function matching(lister: ServiceCIDRLister, test: (p: CIDR) => boolean): KubeObject[] {
  const out: KubeObject[] = [];
  for (const sc of lister.list()) {
    if (serviceCIDRPrefixes(sc).some(test)) out.push(sc);
  }
  return out;
}

/** Every ServiceCIDR with a CIDR that contains `ip` (per prefixContainsIP). */
export function containsAddress(lister: ServiceCIDRLister, ip: IP): KubeObject[] {
  return matching(lister, (p) => prefixContainsIP(p, ip));
}

/** Every ServiceCIDR with a CIDR equal to or wider than `prefix` that contains it (the object itself included). */
export function containsPrefix(lister: ServiceCIDRLister, prefix: CIDR): KubeObject[] {
  return matching(lister, (p) => cidrsOverlap(p, prefix) && p.prefix <= prefix.prefix);
}

/** Every ServiceCIDR with a CIDR that shares at least one address with `prefix`. */
export function overlapsPrefix(lister: ServiceCIDRLister, prefix: CIDR): KubeObject[] {
  return matching(lister, (p) => cidrsOverlap(p, prefix));
}

interface ConditionLike {
  type?: unknown;
  status?: unknown;
}

/**
 * Whether allocators may use a ServiceCIDR: not while it is being deleted; otherwise ready unless
 * a `Ready` condition says anything but True. A missing condition counts as ready, so allocation
 * works without the controller-manager (upstream cidrallocator `isReady`).
 */
export function isServiceCIDRReady(sc: KubeObject): boolean {
  if (sc.metadata.deletionTimestamp !== undefined && sc.metadata.deletionTimestamp !== null) return false;
  const conditions = (sc["status"] as { conditions?: unknown } | undefined)?.conditions;
  if (!Array.isArray(conditions)) return true;
  const ready = (conditions as ConditionLike[]).find((c) => c?.type === serviceCIDRConditionReady);
  return ready === undefined || ready.status === "True";
}
