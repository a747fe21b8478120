/**
 * CIDR parsing with the two strictness levels Kubernetes uses.
 *
 * Like Go's `net.ParseCIDR`, parsing masks the host bits ("10.0.0.1/24" is the
 * network 10.0.0.0/24) and remembers in `hostBitsSet` that they were set.
 * An IPv4-mapped IPv6 prefix of length >= 96 becomes the IPv4 prefix of length
 * p-96 ("::ffff:1.2.3.0/120" is 1.2.3.0/24), because Go's IPNet does the same and
 * `netutils.IsIPv6CIDR` is false for it; a shorter one is an IPv6 network.
 */
import { familyBits, type IP, type IPFamily } from "./family.ts";
import { formatIP } from "./format-ip.ts";
import { addrToIP, parseAddr, stripLeadingZeros, type ParsedAddr } from "./parse-ip.ts";

/** A network: its family, its network address (host bits cleared) and its prefix length. */
export interface CIDR {
  readonly family: IPFamily;
  readonly ip: IP;
  readonly prefix: number;
  /** True if the text had bits set beyond the prefix length ("10.0.0.1/24"). */
  readonly hostBitsSet: boolean;
}

/** A CIDR as netip.ParsePrefix sees it, before Go's IPv4 unmapping. */
export interface ParsedPrefix {
  readonly addr: ParsedAddr;
  readonly prefix: number;
}

/** A mask with the top `prefix` of `bits` bits set. */
export function prefixMask(bits: number, prefix: number): bigint {
  const all = (1n << BigInt(bits)) - 1n;
  return all ^ ((1n << BigInt(bits - prefix)) - 1n);
}

/**
 * Parses "addr/len". `strictLength` rejects a prefix length with leading zeros,
 * as netip.ParsePrefix does (net.ParseCIDR accepts "/024").
 */
export function parsePrefix(s: string, strictLength: boolean): ParsedPrefix | null {
  const slash = s.indexOf("/");
  if (slash === -1) return null;
  const addr = parseAddr(s.slice(0, slash));
  if (addr === null || addr.zone !== "") return null;
  const len = s.slice(slash + 1);
  if (!(strictLength ? /^(0|[1-9][0-9]{0,2})$/ : /^[0-9]+$/).test(len)) return null;
  const prefix = Number(len);
  if (prefix > addr.bits) return null;
  return { addr, prefix };
}

/** Go's IPNet view of a parsed prefix: masked, IPv4-mapped networks of length >= 96 unmapped. */
export function prefixToCIDR(p: ParsedPrefix): CIDR {
  const masked = p.addr.value & prefixMask(p.addr.bits, p.prefix);
  const hostBitsSet = masked !== p.addr.value;
  const ip = addrToIP({ ...p.addr, value: masked });
  const prefix = ip.family === "IPv4" && p.addr.bits === 128 ? p.prefix - 96 : p.prefix;
  return { family: ip.family, ip, prefix, hostBitsSet };
}

/**
 * Strict parse (netip.ParsePrefix rules): no leading zeros in the address or the
 * prefix length, no zone. Host bits are masked and reported. Null if invalid.
 */
export function parseCIDR(s: string): CIDR | null {
  const p = parsePrefix(s, true);
  return p === null ? null : prefixToCIDR(p);
}

/**
 * Legacy parse (`netutils.ParseCIDRSloppy`): also accepts leading zeros in a
 * trailing dotted quad and in the prefix length, read as decimal. Null if invalid.
 */
export function parseCIDRSloppy(s: string): CIDR | null {
  const p = parsePrefix(s, false) ?? parsePrefix(stripLeadingZeros(s), false);
  return p === null ? null : prefixToCIDR(p);
}

/** Canonical "network/prefix" text, as Go's `IPNet.String()`. */
export function formatCIDR(c: CIDR): string {
  return `${formatIP(c.ip)}/${c.prefix}`;
}

/** True if `s` parses strictly, has no host bits set and is already in canonical form. */
export function isCanonicalCIDR(s: string): boolean {
  const c = parseCIDR(s);
  return c !== null && !c.hostBitsSet && formatCIDR(c) === s;
}

/** The number of address bits of the CIDR's family. */
export function cidrBits(c: CIDR): number {
  return familyBits(c.family);
}
