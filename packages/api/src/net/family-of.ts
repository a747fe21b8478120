/**
 * Family detection on strings, as `k8s.io/utils/net` does it: every check parses
 * sloppily, and an IPv4-mapped IPv6 address counts as IPv4.
 */
import type { IPFamily } from "./family.ts";
import { parseCIDRSloppy } from "./parse-cidr.ts";
import { parseIPSloppy } from "./parse-ip.ts";

/** The family of an IP string, or null if it is not an IP (`netutils.IPFamilyOfString`). */
export function ipFamilyOfString(s: string): IPFamily | null {
  return parseIPSloppy(s)?.family ?? null;
}

/** True if `s` is an IPv4 address, including the ::ffff:a.b.c.d form (`netutils.IsIPv4String`). */
export function isIPv4String(s: string): boolean {
  return ipFamilyOfString(s) === "IPv4";
}

/** True if `s` is an IPv6 address that is not IPv4-mapped (`netutils.IsIPv6String`). */
export function isIPv6String(s: string): boolean {
  return ipFamilyOfString(s) === "IPv6";
}

/** The family of a CIDR string, or null if it is not a CIDR (`netutils.IPFamilyOfCIDRString`). */
export function ipFamilyOfCIDRString(s: string): IPFamily | null {
  return parseCIDRSloppy(s)?.family ?? null;
}

/** True if `s` is an IPv4 CIDR (`netutils.IsIPv4CIDRString`). */
export function isIPv4CIDRString(s: string): boolean {
  return ipFamilyOfCIDRString(s) === "IPv4";
}

/** True if `s` is an IPv6 CIDR (`netutils.IsIPv6CIDRString`). */
export function isIPv6CIDRString(s: string): boolean {
  return ipFamilyOfCIDRString(s) === "IPv6";
}

function hasBothFamilies(families: ReadonlyArray<IPFamily | null>): boolean {
  if (families.includes(null)) return false; // upstream returns an error, which callers treat as "not dual"
  return families.includes("IPv4") && families.includes("IPv6");
}

/** True if all strings are IPs and both families occur (`netutils.IsDualStackIPStrings`). */
export function isDualStackIPStrings(ips: readonly string[]): boolean {
  return hasBothFamilies(ips.map(ipFamilyOfString));
}

/** True if all strings are CIDRs and both families occur (`netutils.IsDualStackCIDRStrings`). */
export function isDualStackCIDRStrings(cidrs: readonly string[]): boolean {
  return hasBothFamilies(cidrs.map(ipFamilyOfCIDRString));
}
