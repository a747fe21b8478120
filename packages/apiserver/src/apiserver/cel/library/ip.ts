/**
 * The Kubernetes IP and CIDR libraries (k8s.io/apiserver/pkg/cel/library/ip.go and cidr.go): the
 * `net.IP` and `net.CIDR` types, their constructors, predicates and accessors.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { cidrContains, cidrContainsCIDR, parseCIDR, type IP as Addr } from "@servicenet/api/net";
import { CIDR, IP, isCanonical, parseCIDRValue, parseIPValue } from "../ip.ts";
import { chargeStringTraversal, type Library } from "./library.ts";

function orThrow<T>(v: T | Error): T {
  if (v instanceof Error) throw v;
  return v;
}

const inRange = (a: Addr, cidr: string): boolean => cidrContains(parseCIDR(cidr)!, a);

/** netip's classification of an address (ip.go isUnspecified, isLoopback and the rest). */
const predicates: Record<string, (a: Addr) => boolean> = {
  isUnspecified: (a) => a.value === 0n,
  isLoopback: (a) => (a.family === "IPv4" ? inRange(a, "127.0.0.0/8") : a.value === 1n),
  isLinkLocalMulticast: (a) => (a.family === "IPv4" ? inRange(a, "224.0.0.0/24") : inRange(a, "ff02::/16")),
  isLinkLocalUnicast: (a) => (a.family === "IPv4" ? inRange(a, "169.254.0.0/16") : inRange(a, "fe80::/10")),
  isGlobalUnicast: (a) =>
    a.family === "IPv4"
      ? a.value !== 0xffffffffn &&
        !predicates["isUnspecified"]!(a) &&
        !predicates["isLoopback"]!(a) &&
        !inRange(a, "224.0.0.0/4") &&
        !predicates["isLinkLocalUnicast"]!(a)
      : !predicates["isUnspecified"]!(a) &&
        !predicates["isLoopback"]!(a) &&
        !inRange(a, "ff00::/8") &&
        !predicates["isLinkLocalUnicast"]!(a),
};

function parseIPArg(s: string): IP {
  chargeStringTraversal(s.length);
  return orThrow(parseIPValue(s));
}

function parseCIDRArg(s: string): CIDR {
  chargeStringTraversal(s.length);
  return orThrow(parseCIDRValue(s));
}

/**
 * `ip.isCanonical(s)` is a namespaced function in cel-go; here `ip` is a constant of a namespace
 * type whose method it is (the interpreter resolves `ip.f()` as a receiver call).
 */
class IPNamespace {}

/** The Kubernetes IP library. */
export const ipLibrary: Library = {
  name: "kubernetes.net.ip",
  register(env: Environment): void {
    env.registerType("net.IP", IP);
    env.registerFunction("ip(string): net.IP", parseIPArg);
    env.registerFunction("isIP(string): bool", (s: string) => !(parseIPValue(s) instanceof Error));
    env.registerFunction("string(net.IP): string", (ip: IP) => ip.toString());
    env.registerType("kubernetes.ip", IPNamespace);
    env.registerConstant("ip", "kubernetes.ip", new IPNamespace());
    env.registerFunction("kubernetes.ip.isCanonical(string): bool", (_: IPNamespace, s: string) => isCanonical(parseIPArg(s), s));
    env.registerFunction("net.IP.family(): int", (ip: IP) => (ip.addr.family === "IPv4" ? 4n : 6n));
    for (const [name, test] of Object.entries(predicates)) env.registerFunction(`net.IP.${name}(): bool`, (ip: IP) => test(ip.addr));
  },
};

/** The Kubernetes CIDR library. */
export const cidrLibrary: Library = {
  name: "kubernetes.net.cidr",
  register(env: Environment): void {
    env.registerType("net.CIDR", CIDR);
    env.registerFunction("cidr(string): net.CIDR", parseCIDRArg);
    env.registerFunction("isCIDR(string): bool", (s: string) => !(parseCIDRValue(s) instanceof Error));
    env.registerFunction("string(net.CIDR): string", (c: CIDR) => c.toString());
    env.registerFunction("net.CIDR.containsIP(net.IP): bool", (c: CIDR, ip: IP) => cidrContains(c.network(), ip.addr));
    env.registerFunction("net.CIDR.containsIP(string): bool", (c: CIDR, s: string) => cidrContains(c.network(), parseIPArg(s).addr));
    env.registerFunction("net.CIDR.containsCIDR(net.CIDR): bool", (c: CIDR, o: CIDR) => cidrContainsCIDR(c.network(), o.network()));
    env.registerFunction("net.CIDR.containsCIDR(string): bool", (c: CIDR, s: string) =>
      cidrContainsCIDR(c.network(), parseCIDRArg(s).network()),
    );
    env.registerFunction("net.CIDR.ip(): net.IP", (c: CIDR) => new IP(c.addr));
    env.registerFunction("net.CIDR.masked(): net.CIDR", (c: CIDR) => new CIDR(c.network().ip, c.prefix));
    env.registerFunction("net.CIDR.prefixLength(): int", (c: CIDR) => BigInt(c.prefix));
  },
};
