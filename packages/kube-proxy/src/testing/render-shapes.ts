/** Full-sync output of both backends and both families for one Service shape (tests). */
import type { IPFamily } from "@servicenet/api";
import { newDualStackIptablesProxier, newDualStackNftablesProxier } from "../metaproxier/dual-stack.ts";
import { populate } from "../proxy/populate.ts";
import type { IptablesProxierOptions } from "../iptables/types.ts";
import type { ServiceShape } from "./service-shapes.ts";
import { testNodeName } from "./upstream-services.ts";

export interface RenderedShape {
  readonly iptables: Record<IPFamily, string>;
  readonly nftables: Record<IPFamily, string>;
}

const v4 = { nodeName: testNodeName, clusterCIDR: "10.0.0.0/8", nodeIPs: ["192.0.2.1"] };
const v6 = { nodeName: testNodeName, clusterCIDR: "fd00:10::/48", nodeIPs: ["2001:db8::1"] };

/** Proxier options both backends and families share (--detect-local-mode, --nodeport-addresses, --masquerade-all). */
export type ShapeOptions = Pick<IptablesProxierOptions, "localDetector" | "nodePortAddresses" | "interfaceAddrs" | "masqueradeAll">;

/** Renders `shape` with a node in zone-a (so hints apply), as one full sync per family and backend. */
export function renderShape(shape: ServiceShape, extra: ShapeOptions = {}): RenderedShape {
  const ipt = newDualStackIptablesProxier({ ipv4: { ...v4, ...extra }, ipv6: { ...v6, ...extra } });
  const nft = newDualStackNftablesProxier({
    ipv4: { ...v4, ...extra, serviceCIDRs: ["172.30.0.0/16"] },
    ipv6: { ...v6, ...extra, serviceCIDRs: ["fd00:172:30::/112"] },
  });
  const node = { metadata: { name: testNodeName, labels: { "topology.kubernetes.io/zone": "zone-a" } }, spec: {} };
  for (const meta of [ipt.meta, nft.meta]) {
    meta.onNodeAdd(node);
    populate(meta, shape.services, shape.slices);
  }
  const data = (r: { data: string } | null) => {
    if (r === null) throw new Error("proxier not initialized");
    return r.data;
  };
  return {
    iptables: { IPv4: data(ipt.ipv4.syncProxyRules()), IPv6: data(ipt.ipv6.syncProxyRules()) },
    nftables: { IPv4: data(nft.ipv4.syncProxyRules()), IPv6: data(nft.ipv6.syncProxyRules()) },
  };
}
