/**
 * Warnings for IP and CIDR values in non-standard forms, with the texts of
 * upstream `GetWarningsForIP` / `GetWarningsForCIDR`. Only meaningful for
 * values that already passed the legacy validators; others give no warnings.
 */
import { formatCIDR, parseCIDRSloppy, parsePrefix } from "./parse-cidr.ts";
import { formatIP } from "./format-ip.ts";
import { is4In6, parseAddr, parseIPSloppy } from "./parse-ip.ts";

const q = (s: string): string => JSON.stringify(s);

/** Warnings for a legacy IP field value (leading zeros, IPv4-mapped, non-RFC 5952 IPv6). */
export function getWarningsForIP(path: string, value: string): string[] {
  const ip = parseIPSloppy(value);
  if (ip === null) return [];
  const addr = parseAddr(value);
  if (addr === null || is4In6(addr)) {
    return [
      `${path}: non-standard IP address ${q(value)} will be considered invalid in a future Kubernetes release: use ${q(formatIP(ip))}`,
    ];
  }
  if (addr.bits === 128 && formatIP(ip) !== value) {
    return [`${path}: IPv6 address ${q(value)} should be in RFC 5952 canonical format (${q(formatIP(ip))})`];
  }
  return [];
}

/** Warnings for a legacy CIDR field value (host bits, leading zeros, IPv4-mapped, non-RFC 5952 IPv6). */
export function getWarningsForCIDR(path: string, value: string): string[] {
  const c = parseCIDRSloppy(value);
  if (c === null) return [];
  const warnings: string[] = [];
  const slash = value.indexOf("/");
  if (c.hostBitsSet) {
    const ip = parseIPSloppy(value.slice(0, slash))!;
    // Go prints the unmasked IP with the mask length of the parsed text (128 for "::ffff:..." forms).
    const addrLen = value.slice(0, slash).includes(":") ? 128 : 32;
    warnings.push(
      `${path}: CIDR value ${q(value)} is ambiguous in this context (should be ${q(formatCIDR(c))} or ${q(`${formatIP(ip)}/${addrLen}`)}?)`,
    );
  }
  const p = parsePrefix(value, true);
  if (p === null || is4In6(p.addr)) {
    warnings.push(
      `${path}: non-standard CIDR value ${q(value)} will be considered invalid in a future Kubernetes release: use ${q(formatCIDR(c))}`,
    );
  }
  if (warnings.length === 0 && p !== null && p.addr.bits === 128) {
    const canonical = `${formatIP({ family: "IPv6", value: p.addr.value })}/${p.prefix}`;
    if (canonical !== value) {
      warnings.push(`${path}: IPv6 CIDR value ${q(value)} should be in RFC 5952 canonical format (${q(canonical)})`);
    }
  }
  return warnings;
}
