/** The proxiers' per-family settings that come from flags (cmd/kube-proxy/app/server_linux.go, server.go). */
import { ipFamilyOfCIDRString } from "@servicenet/api";
import type { IPFamily } from "@servicenet/api";
import { isLoopbackIP } from "../util/nodeport-addresses.ts";
import {
  detectLocalByBridgeInterface,
  detectLocalByCIDR,
  detectLocalByInterfaceNamePrefix,
  noOpLocalDetector,
} from "../util/local-detector.ts";
import type { LocalTrafficDetector } from "../util/local-detector.ts";
import { nodePortAddressesPrimary } from "../apis/config/types.ts";
import type { ProxyServerOptions } from "./options.ts";

/**
 * `getLocalDetectors`: one detector per family for `--detect-local-mode`; NodeCIDR uses
 * `nodePodCIDRs` (this Node's `spec.podCIDRs`, the first of each family).
 */
export function getLocalDetectors(
  o: Pick<ProxyServerOptions, "detectLocalMode" | "clusterCIDRs" | "podBridgeInterface" | "podInterfaceNamePrefix">,
  nodePodCIDRs: readonly string[] = [],
): Record<IPFamily, LocalTrafficDetector> {
  const byCIDR = (cidrs: readonly string[]) => {
    const first = (f: IPFamily) => cidrs.find((c) => ipFamilyOfCIDRString(c) === f);
    const v4 = first("IPv4");
    const v6 = first("IPv6");
    return {
      IPv4: v4 !== undefined ? detectLocalByCIDR(v4) : noOpLocalDetector,
      IPv6: v6 !== undefined ? detectLocalByCIDR(v6) : noOpLocalDetector,
    };
  };
  switch (o.detectLocalMode) {
    case "ClusterCIDR":
      return byCIDR([o.clusterCIDRs.IPv4, o.clusterCIDRs.IPv6].filter((c) => c !== undefined));
    case "NodeCIDR":
      return byCIDR(nodePodCIDRs);
    case "BridgeInterface": {
      const d = detectLocalByBridgeInterface(o.podBridgeInterface);
      return { IPv4: d, IPv6: d };
    }
    case "InterfaceNamePrefix": {
      const d = detectLocalByInterfaceNamePrefix(o.podInterfaceNamePrefix);
      return { IPv4: d, IPv6: d };
    }
    default:
      return { IPv4: noOpLocalDetector, IPv6: noOpLocalDetector };
  }
}

/**
 * `--nodeport-addresses primary` resolved as NewProxyServer does: the node's primary IP of
 * each family (here the first `--node-ip` of it) as a /32 or /128, loopback left out.
 */
export function resolveNodePortAddresses(o: Pick<ProxyServerOptions, "nodePortAddresses" | "nodeIPs">): readonly string[] {
  if (o.nodePortAddresses.length !== 1 || o.nodePortAddresses[0] !== nodePortAddressesPrimary) return o.nodePortAddresses;
  const out: string[] = [];
  const v4 = o.nodeIPs.IPv4[0];
  const v6 = o.nodeIPs.IPv6[0];
  if (v4 !== undefined && !isLoopbackIP(v4)) out.push(`${v4}/32`);
  if (v6 !== undefined && !isLoopbackIP(v6)) out.push(`${v6}/128`);
  return out;
}
