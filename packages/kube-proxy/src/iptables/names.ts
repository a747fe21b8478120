/** Chain names and fixed strings of the iptables proxier (pkg/proxy/iptables/proxier.go). */
import { sha256Base32Prefix } from "../util/hash.ts";

export const chains = {
  services: "KUBE-SERVICES",
  externalServices: "KUBE-EXTERNAL-SERVICES",
  nodePorts: "KUBE-NODEPORTS",
  postrouting: "KUBE-POSTROUTING",
  markMasq: "KUBE-MARK-MASQ",
  forward: "KUBE-FORWARD",
  proxyFirewall: "KUBE-PROXY-FIREWALL",
  kubeletFirewall: "KUBE-FIREWALL",
} as const;

/** Prefixes of per-service chains; `isServiceChainName` recognises stale ones by them. */
export const serviceChainPrefixes = ["KUBE-SVC-", "KUBE-SVL-", "KUBE-EXT-", "KUBE-FW-", "KUBE-SEP-"] as const;

/** `portProtoHash`: the first 16 base32 characters of sha256(spn + protocol). */
export function portProtoHash(servicePortName: string, protocol: string): string {
  return sha256Base32Prefix(servicePortName + protocol, 16);
}

/** The four per-service chains of one service port; they share one hash. */
export interface ServiceChainNames {
  readonly cluster: string;
  readonly local: string;
  readonly external: string;
  readonly firewall: string;
}

/** `servicePortPolicyClusterChain` & co. for `ns/name:port` and a lower-case protocol. */
export function serviceChainNames(servicePortName: string, protocol: string): ServiceChainNames {
  const h = portProtoHash(servicePortName, protocol);
  return { cluster: `KUBE-SVC-${h}`, local: `KUBE-SVL-${h}`, external: `KUBE-EXT-${h}`, firewall: `KUBE-FW-${h}` };
}

/** `servicePortEndpointChainName`: KUBE-SEP- + hash of spn + protocol + "ip:port". */
export function endpointChainName(servicePortName: string, protocol: string, endpoint: string): string {
  return `KUBE-SEP-${sha256Base32Prefix(servicePortName + protocol + endpoint, 16)}`;
}

/** `isServiceChainName`: a chain this proxier owns and may delete when stale. */
export function isServiceChainName(chain: string): boolean {
  return serviceChainPrefixes.some((p) => chain.startsWith(p));
}

/** `utiliptables.MakeChainLine`. */
export function chainLine(chain: string): string {
  return `:${chain} - [0:0]`;
}

const probabilities: string[] = [];

/**
 * The statistic-match probability for the i-th of n endpoints, 1/(n-i), printed
 * as Go's "%0.10f" does; cached as upstream's `precomputedProbabilities`.
 */
export function probability(n: number): string {
  let p = probabilities[n];
  if (p === undefined) {
    p = (1 / n).toFixed(10);
    if (n <= 1000) probabilities[n] = p;
  }
  return p;
}
