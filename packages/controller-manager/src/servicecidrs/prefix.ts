/** Prefix containment as the ServiceCIDR machinery defines it (pkg/registry/core/service/ipallocator). */
import { broadcastAddress, cidrContains, cidrContainsCIDR, ipEqual, type CIDR, type IP } from "@servicenet/api";

/**
 * `PrefixContainsIP`: inside the prefix and not its network address, nor
 * (IPv4) its broadcast address, which the allocator never hands out.
 */
export function prefixContainsIP(prefix: CIDR, ip: IP): boolean {
  if (!cidrContains(prefix, ip)) return false;
  if (ipEqual(prefix.ip, ip)) return false;
  if (prefix.family === "IPv4" && ipEqual(broadcastAddress(prefix), ip)) return false;
  return true;
}

/** `outer` contains all of `inner` (same or shorter prefix). */
export function cidrCovers(outer: CIDR, inner: CIDR): boolean {
  return cidrContainsCIDR(outer, inner);
}
