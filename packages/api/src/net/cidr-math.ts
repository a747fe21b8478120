/**
 * Address arithmetic on CIDRs, all in BigInt so that a /64 or a /0 IPv6 range
 * works (https://github.com/kubernetes/kubernetes/issues/138374 came from 64-bit maths on large ranges).
 * Addresses of different families are never contained in, or overlapping with,
 * each other.
 */
import { familyBits, familyLimit, type IP } from "./family.ts";
import { parseCIDRSloppy, prefixMask, type CIDR } from "./parse-cidr.ts";
import { parseIPSloppy } from "./parse-ip.ts";

function hostBits(c: CIDR): bigint {
  return BigInt(familyBits(c.family) - c.prefix);
}

/** The number of addresses in the CIDR, 2^(bits-prefix) (2^128 for ::/0). */
export function cidrSize(c: CIDR): bigint {
  return 1n << hostBits(c);
}

/** True if `ip` is inside `c` (always false across families). */
export function cidrContains(c: CIDR, ip: IP): boolean {
  if (c.family !== ip.family) return false;
  return (ip.value & prefixMask(familyBits(c.family), c.prefix)) === c.ip.value;
}

/**
 * True if `ip` is inside `prefix` and is neither its network address nor, for IPv4, its broadcast
 * address, which the ClusterIP allocator never hands out (PrefixContainsIP in
 * pkg/registry/core/service/ipallocator/ipallocator.go): a ServiceCIDR never allocates those, so
 * a Service holding one does not belong to it. The IPv6 all-ones address counts as inside.
 */
export function prefixContainsIP(prefix: CIDR, ip: IP): boolean {
  if (!cidrContains(prefix, ip) || ip.value === prefix.ip.value) return false;
  return ip.family !== "IPv4" || ip.value !== lastAddress(prefix).value;
}

/**
 * True if the CIDR string `cidr` contains the IP string `ip`, both parsed sloppily (leading zeros
 * allowed, as kube-proxy's netutils.ParseCIDRSloppy/ParseIPSloppy); false when either does not
 * parse or the families differ.
 */
export function containsIP(cidr: string, ip: string): boolean {
  const c = parseCIDRSloppy(cidr);
  const a = parseIPSloppy(ip);
  return c !== null && a !== null && cidrContains(c, a);
}

/** True if every address of `inner` is inside `outer`. */
export function cidrContainsCIDR(outer: CIDR, inner: CIDR): boolean {
  return outer.family === inner.family && outer.prefix <= inner.prefix && cidrContains(outer, inner.ip);
}

/** True if the two CIDRs share at least one address (never across families). */
export function cidrsOverlap(a: CIDR, b: CIDR): boolean {
  return a.family === b.family && (cidrContains(a, b.ip) || cidrContains(b, a.ip));
}

/**
 * The address at offset `index` from the network address (0 is the network address).
 * @throws RangeError unless 0 <= index < cidrSize(c).
 */
export function addressAt(c: CIDR, index: bigint): IP {
  if (index < 0n || index >= cidrSize(c)) {
    throw new RangeError(`index ${index} is outside ${c.family} range of ${cidrSize(c)} addresses`);
  }
  return { family: c.family, value: c.ip.value + index };
}

/** The offset of `ip` from the network address of `c`, or -1n if `c` does not contain it. */
export function indexOf(c: CIDR, ip: IP): bigint {
  return cidrContains(c, ip) ? ip.value - c.ip.value : -1n;
}

/** The last address of `c` (all host bits set). */
export function lastAddress(c: CIDR): IP {
  return { family: c.family, value: c.ip.value + cidrSize(c) - 1n };
}

/**
 * The address with all host bits set, as upstream ipallocator's
 * `broadcastAddress` computes it for either family. The same as `lastAddress`;
 * whether it may be allocated is the caller's policy (upstream excludes it for
 * IPv4 only).
 */
export function broadcastAddress(c: CIDR): IP {
  return lastAddress(c);
}

/**
 * `ip` plus `n` (which may be negative), in the same family.
 * @throws RangeError if the result leaves the family's address space
 * (upstream's big.Int version would silently produce a garbage address).
 */
export function addIP(ip: IP, n: bigint): IP {
  const value = ip.value + n;
  if (value < 0n || value >= familyLimit(ip.family)) {
    throw new RangeError(`${ip.family} address ${ip.value} + ${n} is out of range`);
  }
  return { family: ip.family, value };
}

/** Orders addresses: every IPv4 address before every IPv6 address, then by value. Returns -1, 0 or 1. */
export function compareIPs(a: IP, b: IP): -1 | 0 | 1 {
  if (a.family !== b.family) return a.family === "IPv4" ? -1 : 1;
  if (a.value === b.value) return 0;
  return a.value < b.value ? -1 : 1;
}

/** True if both addresses have the same family and value. */
export function ipEqual(a: IP, b: IP): boolean {
  return a.family === b.family && a.value === b.value;
}
