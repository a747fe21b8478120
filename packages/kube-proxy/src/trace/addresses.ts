/** Address matching for the tracer: literal IPs and CIDRs of either family, parsed once per rule. */
import { cidrContains, formatIP, parseCIDRSloppy, parseIPSloppy } from "@servicenet/api";
import type { IP } from "@servicenet/api";

/** Tests one address against an IP or CIDR written in a rule. */
export type AddressMatcher = (ip: string) => boolean;

// Dotted-quad IPv4 without leading zeros is already canonical: no parse needed (indexing a
// 10,000-rule chain canonicalises every address in it).
const canonicalIPv4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** The canonical text of `s`, or `s` itself when it is not an address. */
export function canonicalIP(s: string): string {
  if (canonicalIPv4.test(s)) return s;
  const ip = parseIPSloppy(s);
  return ip === null ? s : formatIP(ip);
}

/**
 * A matcher for `spec`, an address ("10.0.0.1") or a CIDR ("10.0.0.0/8"); as upstream's
 * tracers' addressMatches, a mismatch of families never matches.
 * @throws Error when `spec` is neither.
 */
export function addressMatcher(spec: string): AddressMatcher {
  if (spec.includes("/")) {
    const cidr = parseCIDRSloppy(spec);
    if (cidr === null) throw new Error(`bad CIDR ${JSON.stringify(spec)} in rule`);
    return (ip) => {
      const p = parseCached(ip);
      return p !== null && cidrContains(cidr, p);
    };
  }
  const want = parseIPSloppy(spec);
  if (want === null) throw new Error(`bad address ${JSON.stringify(spec)} in rule`);
  const text = formatIP(want);
  return (ip) => canonicalCached(ip) === text;
}

const parsed = new Map<string, IP | null>();
const canonical = new Map<string, string>();

// A trace tests the same handful of packet addresses against thousands of rules.
function parseCached(s: string): IP | null {
  let p = parsed.get(s);
  if (p === undefined) {
    p = parseIPSloppy(s);
    if (parsed.size > 4096) parsed.clear();
    parsed.set(s, p);
  }
  return p;
}

function canonicalCached(s: string): string {
  if (canonicalIPv4.test(s)) return s;
  let c = canonical.get(s);
  if (c === undefined) {
    const p = parseCached(s);
    c = p === null ? s : formatIP(p);
    if (canonical.size > 4096) canonical.clear();
    canonical.set(s, c);
  }
  return c;
}

const loopback = [addressMatcher("127.0.0.0/8"), addressMatcher("::1")];

/** The node's own addresses (`-m addrtype --dst-type LOCAL`, `fib daddr type local`); loopback always counts. */
export class LocalAddresses {
  readonly #ips: Set<string>;

  constructor(ips: readonly string[]) {
    this.#ips = new Set(ips.map(canonicalIP));
  }

  /** True if `ip` is one of the node's addresses or a loopback address. */
  has(ip: string): boolean {
    return this.#ips.has(canonicalCached(ip)) || loopback.some((m) => m(ip));
  }
}

/** "ip:port", IPv6 in brackets (net.JoinHostPort). */
export function joinHostPort(ip: string, port: number): string {
  return ip.includes(":") ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** Splits "ip:port" / "[ip]:port". */
export function splitHostPort(s: string): { ip: string; port: number | undefined } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
  if (v6 !== null) return { ip: v6[1] ?? "", port: v6[2] === undefined ? undefined : Number(v6[2]) };
  const i = s.lastIndexOf(":");
  if (i > 0 && s.indexOf(":") === i) return { ip: s.slice(0, i), port: Number(s.slice(i + 1)) };
  return { ip: s, port: undefined };
}
