/** Object names of the nftables proxier (pkg/proxy/nftables/proxier.go). */
import type { IPFamily } from "@servicenet/api";
import { sha256Base32Prefix } from "../util/hash.ts";

export const kubeProxyTable = "kube-proxy";

export const sets = {
  clusterIPs: "cluster-ips",
  nodePortIPs: "nodeport-ips",
} as const;

export const maps = {
  serviceIPs: "service-ips",
  serviceNodePorts: "service-nodeports",
  firewallIPs: "firewall-ips",
  noEndpointServices: "no-endpoint-services",
  noEndpointNodePorts: "no-endpoint-nodeports",
} as const;

/** `nft` family keyword, address type and the `ip`/`ip6` payload match word. */
export function nftFamily(family: IPFamily): { table: string; addrType: string; ip: string } {
  return family === "IPv4" ? { table: "ip", addrType: "ipv4_addr", ip: "ip" } : { table: "ip6", addrType: "ipv6_addr", ip: "ip6" };
}

// Upstream caps object names (pkg/proxy/nftables/proxier.go); the exact limit is not verified.
const maxNameLength = 240;

/** `hashAndTruncate`: 8 base32 characters of sha256(name), "-", name; long names end in "...". */
export function hashAndTruncate(name: string): string {
  // join() gives one flat string; a template literal gives a tree of cons strings, and this name
  // is kept per endpoint across syncs (100k of them), where every node costs GC time.
  const out = [sha256Base32Prefix(name, 8), name].join("-");
  return out.length > maxNameLength ? `${out.slice(0, maxNameLength - 3)}...` : out;
}

/** Base of the service/local/external/firewall chain names: hash-ns/svc/proto/portName. */
export function nftServiceChainBase(ns: string, name: string, protocol: string, portName: string): string {
  return hashAndTruncate(`${ns}/${name}/${protocol}/${portName}`);
}

/** Base of endpoint chain and affinity set names; ":" of IPv6 addresses becomes ".". */
export function nftEndpointChainBase(ns: string, name: string, protocol: string, portName: string, ip: string, port: number): string {
  return hashAndTruncate(`${ns}/${name}/${protocol}/${portName}__${ip.replaceAll(":", ".")}/${port}`);
}

/** `isServiceChainName`: per-service chains are the ones with a "/" in their name. */
export function isServiceChainName(chain: string): boolean {
  return chain.includes("/");
}
