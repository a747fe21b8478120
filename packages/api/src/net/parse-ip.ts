/**
 * IP address parsing with Kubernetes' two strictness levels.
 *
 * - `parseIP` is Go's `net.ParseIP` (Go >= 1.17, built on `netip.ParseAddr`):
 *   no leading zeros in IPv4 octets, at most 4 hex digits per IPv6 group, no zones.
 * - `parseIPSloppy` is `k8s.io/utils/net.ParseIPSloppy`: it tries the strict
 *   parse, then strips leading zeros from a trailing dotted quad with upstream's
 *   own regular expression and tries again. Leading zeros are DECIMAL
 *   ("010.0.0.1" is 10.0.0.1), never octal.
 *
 * Both return an IPv4-mapped IPv6 address ("::ffff:1.2.3.4") as family IPv4,
 * because Go's `net.IP.To4()` succeeds for it and `netutils.IsIPv6String` is
 * false for it. Strict validation (`isValidIP`) rejects that form separately.
 */
import type { IP } from "./family.ts";

/** An address as netip.ParseAddr sees it: 32 or 128 bits, plus an optional zone. */
export interface ParsedAddr {
  readonly bits: 32 | 128;
  readonly value: bigint;
  readonly zone: string;
}

const v4MappedPrefix = 0xffffn << 32n;
const low32 = 0xffffffffn;

/** Upstream's `matchZeros` from k8s.io/utils/net/parse.go, verbatim. */
const matchZeros = /(^|:)0*(0|[1-9][0-9]*)\.0*(0|[1-9][0-9]*)\.0*(0|[1-9][0-9]*)\.0*(0|[1-9][0-9]*)((\/)0*(0|[1-9][0-9]*))?$/;
const stripZerosTemplate = "$1$2.$3.$4.$5$7$8";

/** Removes leading zeros from a trailing dotted quad (and its prefix length), as upstream does. */
export function stripLeadingZeros(s: string): string {
  return s.replace(matchZeros, stripZerosTemplate);
}

/**
 * netip's parseIPv4Fields as a number, or -1: exactly four decimal fields, each
 * 0-255, 1-3 digits, no leading zeros. A char loop instead of split + regex per
 * field: this runs for every ClusterIP and IPAddress name on the create path.
 */
function parseIPv4Number(s: string): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2e) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + octet;
      dots++;
      octet = 0;
      digits = 0;
    } else if (c >= 0x30 && c <= 0x39) {
      // "0" alone is fine, "01" is not; more than 3 digits can not be <= 255 without a leading zero.
      if ((digits === 1 && octet === 0) || digits === 3) return -1;
      octet = octet * 10 + (c - 0x30);
      digits++;
      if (octet > 255) return -1;
    } else {
      return -1;
    }
  }
  if (digits === 0 || dots !== 3) return -1;
  return value * 256 + octet;
}

/** netip's parseIPv4Fields: exactly four decimal fields, each 0-255, no leading zeros. */
function parseIPv4Fields(s: string): bigint | null {
  const n = parseIPv4Number(s);
  return n < 0 ? null : BigInt(n);
}

/** netip's parseIPv6 without the zone: groups of 1-4 hex digits, one "::", optional trailing IPv4. */
function parseIPv6Body(s: string): bigint | null {
  if (s === "::") return 0n;
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const parseGroups = (part: string, allowV4Tail: boolean): bigint[] | null => {
    if (part === "") return [];
    const out: bigint[] = [];
    const groups = part.split(":");
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i]!;
      if (allowV4Tail && i === groups.length - 1 && g.includes(".")) {
        const v4 = parseIPv4Fields(g);
        if (v4 === null) return null;
        out.push(v4 >> 16n, v4 & 0xffffn);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(g)) {
        out.push(BigInt(`0x${g}`));
      } else {
        return null;
      }
    }
    return out;
  };
  const head = parseGroups(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? parseGroups(halves[1]!, true) : [];
  if (head === null || tail === null) return null;
  const used = head.length + tail.length;
  // Without "::" all eight groups are needed; with it, "::" must stand for at least one group.
  if (halves.length === 1 ? used !== 8 : used > 7) return null;
  const groups = [...head, ...new Array<bigint>(8 - used).fill(0n), ...tail];
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/**
 * Parses like Go's `netip.ParseAddr`: keeps 128-bit IPv4-mapped addresses as
 * 128-bit and accepts a non-empty zone on IPv6. Returns null on any error.
 */
export function parseAddr(s: string): ParsedAddr | null {
  // Char codes, not `for...of`: no per-character strings; a surrogate never equals '.', ':' or '%'.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2e) {
      const v = parseIPv4Fields(s);
      return v === null ? null : { bits: 32, value: v, zone: "" };
    }
    if (c === 0x3a) {
      const pct = s.indexOf("%");
      const zone = pct === -1 ? "" : s.slice(pct + 1);
      if (pct !== -1 && zone === "") return null;
      const v = parseIPv6Body(pct === -1 ? s : s.slice(0, pct));
      return v === null ? null : { bits: 128, value: v, zone };
    }
    if (c === 0x25) return null;
  }
  return null;
}

/** True for a 128-bit address inside ::ffff:0:0/96 (netip `Is4In6`). */
export function is4In6(a: ParsedAddr): boolean {
  return a.bits === 128 && a.value >> 32n === 0xffffn;
}

/** Converts a parsed address to an IP, unmapping ::ffff:a.b.c.d to IPv4 as Go's net.IP does. */
export function addrToIP(a: ParsedAddr): IP {
  if (a.bits === 32) return { family: "IPv4", value: a.value };
  if (is4In6(a)) return { family: "IPv4", value: a.value & low32 };
  return { family: "IPv6", value: a.value };
}

/** The 128-bit form of an IP (IPv4 becomes ::ffff:a.b.c.d), as Go stores a 16-byte net.IP. */
export function ipTo16(ip: IP): bigint {
  return ip.family === "IPv4" ? v4MappedPrefix | ip.value : ip.value;
}

/**
 * Strict parse (Go `net.ParseIP`): rejects leading zeros in IPv4 octets, zones and
 * empty strings. Returns null if `s` is not an IP address.
 */
export function parseIP(s: string): IP | null {
  const a = parseAddr(s);
  if (a === null || a.zone !== "") return null;
  return addrToIP(a);
}

/**
 * Legacy parse (`netutils.ParseIPSloppy`): as `parseIP`, but IPv4 octets may carry
 * leading zeros, read as decimal. Returns null if `s` is not an IP address.
 */
export function parseIPSloppy(s: string): IP | null {
  return parseIP(s) ?? parseIP(stripLeadingZeros(s));
}
