/**
 * The local-traffic detector (pkg/proxy/util/localdetector.go): the match arguments a
 * proxier writes to tell traffic from this node's pods from other traffic, for the
 * "masquerade off-cluster traffic to a ClusterIP" rule and the ETP Local short-circuit.
 */
import { ipFamilyOfCIDRString } from "@servicenet/api";

export interface LocalTrafficDetector {
  /** False for the no-op detector: the proxiers then write neither rule. */
  readonly isImplemented: boolean;
  /** iptables arguments matching traffic from a local pod (`-s 10.0.0.0/8`). */
  readonly ifLocal: string;
  /** iptables arguments matching traffic not from a local pod (`! -s 10.0.0.0/8`). */
  readonly ifNotLocal: string;
  /** nftables expression matching traffic from a local pod (`ip saddr 10.0.0.0/8`). */
  readonly ifLocalNFT: string;
  /** nftables expression matching traffic not from a local pod (`ip saddr != 10.0.0.0/8`). */
  readonly ifNotLocalNFT: string;
}

/** `NewNoOpLocalDetector`. */
export const noOpLocalDetector: LocalTrafficDetector = Object.freeze({
  isImplemented: false,
  ifLocal: "",
  ifNotLocal: "",
  ifLocalNFT: "",
  ifNotLocalNFT: "",
});

/** `NewDetectLocalByCIDR`: traffic from `cidr` is local. `cidr` is assumed valid. */
export function detectLocalByCIDR(cidr: string): LocalTrafficDetector {
  const nft = ipFamilyOfCIDRString(cidr) === "IPv6" ? "ip6" : "ip";
  return Object.freeze({
    isImplemented: true,
    ifLocal: `-s ${cidr}`,
    ifNotLocal: `! -s ${cidr}`,
    ifLocalNFT: `${nft} saddr ${cidr}`,
    ifNotLocalNFT: `${nft} saddr != ${cidr}`,
  });
}

/**
 * `NewDetectLocalByBridgeInterface`: traffic arriving on `interfaceName` is local. nftables
 * matches the name (`iifname`): `iif` resolves an index when loading and fails for a bridge
 * that does not exist yet.
 */
export function detectLocalByBridgeInterface(interfaceName: string): LocalTrafficDetector {
  return Object.freeze({
    isImplemented: true,
    ifLocal: `-i ${interfaceName}`,
    ifNotLocal: `! -i ${interfaceName}`,
    ifLocalNFT: `iifname ${interfaceName}`,
    ifNotLocalNFT: `iifname != ${interfaceName}`,
  });
}

/** `NewDetectLocalByInterfaceNamePrefix`: traffic arriving on an interface named `prefix…` is local. */
export function detectLocalByInterfaceNamePrefix(prefix: string): LocalTrafficDetector {
  return Object.freeze({
    isImplemented: true,
    ifLocal: `-i ${prefix}+`,
    ifNotLocal: `! -i ${prefix}+`,
    ifLocalNFT: `iifname ${prefix}*`,
    ifNotLocalNFT: `iifname != ${prefix}*`,
  });
}

/** The detector a proxier uses: an explicit one, else by `clusterCIDR` when given, else none. */
export function proxierLocalDetector(o: {
  readonly localDetector?: LocalTrafficDetector;
  readonly clusterCIDR?: string;
}): LocalTrafficDetector {
  if (o.localDetector !== undefined) return o.localDetector;
  return o.clusterCIDR !== undefined && o.clusterCIDR !== "" ? detectLocalByCIDR(o.clusterCIDR) : noOpLocalDetector;
}
