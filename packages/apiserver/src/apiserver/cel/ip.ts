/**
 * The CEL value types of the Kubernetes IP and CIDR libraries: `net.IP` (k8s.io/apiserver/pkg/cel/ip.go)
 * and `net.CIDR` (k8s.io/apiserver/pkg/cel/cidr.go), on the project's own address maths.
 */
import { formatIP, parseIP, parseCIDR, type IP as Addr, type CIDR as Net } from "@servicenet/api/net";

/** A `net.IP` value: one address, never an IPv4-mapped IPv6 one or one with a zone. */
export class IP {
  readonly addr: Addr;
  constructor(addr: Addr) {
    this.addr = addr;
  }
  /** The address in canonical form, as netip.Addr.String. */
  toString(): string {
    return formatIP(this.addr);
  }
}

/** A `net.CIDR` value: the address as written (host bits kept, as netip.Prefix does) and the prefix length. */
export class CIDR {
  readonly addr: Addr;
  readonly prefix: number;
  constructor(addr: Addr, prefix: number) {
    this.addr = addr;
    this.prefix = prefix;
  }
  /** The network with the host bits cleared. */
  network(): Net {
    const n = parseCIDR(`${formatIP(this.addr)}/${this.prefix}`);
    if (n === null) throw new Error(`invalid prefix ${formatIP(this.addr)}/${this.prefix}`);
    return n;
  }
  /** "addr/len" with the address as written, as netip.Prefix.String. */
  toString(): string {
    return `${formatIP(this.addr)}/${this.prefix}`;
  }
}

/**
 * Parses an IP as library.IP's ip() does (netip.ParseAddr, then no zones and no IPv4-mapped IPv6),
 * or returns the error upstream returns.
 */
export function parseIPValue(s: string): IP | Error {
  const err = (why: string) => new Error(`IP Address ${JSON.stringify(s)} parse error during conversion from string: ${why}`);
  if (s.includes("%")) return err("IP address with zone value is not allowed");
  const ip = parseIP(s);
  if (ip === null) return err(`ParseAddr(${JSON.stringify(s)}): invalid IP address`);
  // parseIP unmaps ::ffff:a.b.c.d; netip.ParseAddr keeps it as IPv6, which the library refuses.
  if (ip.family === "IPv4" && s.includes(":")) return err("IPv4-mapped IPv6 address is not allowed");
  return new IP(ip);
}

/** Parses a CIDR as library.CIDR's cidr() does (netip.ParsePrefix, no IPv4-mapped IPv6), or its error. */
export function parseCIDRValue(s: string): CIDR | Error {
  const prefixErr = "network address parse error during conversion from string";
  const err = (why: string) => new Error(`${prefixErr}: ${prefixErr}: ${why}`);
  const slash = s.indexOf("/");
  const net = parseCIDR(s);
  if (slash === -1 || net === null) return err(`netip.ParsePrefix(${JSON.stringify(s)}): invalid prefix`);
  const addr = parseIPValue(s.slice(0, slash));
  if (addr instanceof Error) return err("IPv4-mapped IPv6 address is not allowed");
  return new CIDR(addr.addr, net.prefix);
}

/** True if `s` is an address in the form netip.Addr.String gives it (library ip.isCanonical). */
export function isCanonical(ip: IP, s: string): boolean {
  return ip.toString() === s;
}
