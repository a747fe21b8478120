/**
 * Canonical text and byte forms of addresses, as Go's `net.IP.String()` and
 * `netip.Addr.String()` produce them.
 */
import { familyBits, type IP, type IPFamily } from "./family.ts";
import { parseIP } from "./parse-ip.ts";

function formatIPv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join(".");
}

/** RFC 5952: lowercase, no leading zeros, "::" for the longest run (first on a tie) of two or more zero groups. */
function formatIPv6(value: bigint): string {
  const groups: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(Number((value >> shift) & 0xffffn));
  let bestStart = -1;
  let bestLen = 1; // a single zero group is never compressed
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (gs: number[]): string => gs.map((g) => g.toString(16)).join(":");
  if (bestStart === -1) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLen))}`;
}

/** The canonical text of an address: dotted decimal for IPv4, RFC 5952 for IPv6. */
export function formatIP(ip: IP): string {
  return ip.family === "IPv4" ? formatIPv4(ip.value) : formatIPv6(ip.value);
}

/** True if `s` parses strictly and is already in canonical form (the IPAddress name rule). */
export function isCanonicalIP(s: string): boolean {
  const ip = parseIP(s);
  return ip !== null && formatIP(ip) === s;
}

/** The address as 4 (IPv4) or 16 (IPv6) network-order bytes. */
export function ipToBytes(ip: IP): Uint8Array {
  const n = familyBits(ip.family) / 8;
  const out = new Uint8Array(n);
  let v = ip.value;
  for (let i = n - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/**
 * The address held in 4 or 16 network-order bytes. A 16-byte IPv4-mapped
 * address stays IPv6 here: callers pass bytes they already know the family of.
 * @throws RangeError for any other length.
 */
export function ipFromBytes(bytes: Uint8Array): IP {
  if (bytes.length !== 4 && bytes.length !== 16) throw new RangeError(`an IP has 4 or 16 bytes, not ${bytes.length}`);
  const family: IPFamily = bytes.length === 4 ? "IPv4" : "IPv6";
  let value = 0n;
  for (const b of bytes) value = (value << 8n) | BigInt(b);
  return { family, value };
}
