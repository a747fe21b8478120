/**
 * One node's rules for the tracer: computed from API objects by the same
 * proxier the node's kube-proxy runs (one family), or loaded from the text a
 * kube-proxy wrote (its dry-run files, in the order they were applied).
 */
import type { EndpointSlice, IPFamily, Node, Service } from "@servicenet/api";
import { IptablesProxier } from "../iptables/proxier.ts";
import { NftablesProxier } from "../nftables/proxier.ts";
import { populate } from "../proxy/populate.ts";
import { traceIptables } from "./iptables/evaluate.ts";
import { IptablesRuleset } from "./iptables/ruleset.ts";
import { traceNftables } from "./nftables/evaluate.ts";
import { NftablesRuleset } from "./nftables/ruleset.ts";
import type { TracePacket, TraceResult } from "./types.ts";

export type ProxyMode = "iptables" | "nftables";

/** What the node's kube-proxy is given: its flags and the objects its informers hold. */
export interface NodeRulesInput {
  readonly mode: ProxyMode;
  readonly family: IPFamily;
  /** `--hostname-override`: decides which endpoints are local. */
  readonly nodeName: string;
  /** `--cluster-cidr` of this family ("" for none: no pod short-circuit, no masquerade of off-cluster sources). */
  readonly clusterCIDR: string;
  /** `--node-ip` of this family: the node's own addresses (LOCAL for the tracer, LoadBalancerSourceRanges). */
  readonly nodeIPs: readonly string[];
  /** ServiceCIDR ranges of this family (nftables drops traffic to unallocated ClusterIPs). */
  readonly serviceCIDRs: readonly string[];
  readonly services: readonly Service[];
  readonly slices: readonly EndpointSlice[];
  /** The node itself: its `topology.kubernetes.io/zone` label decides which zone hints apply. */
  readonly node?: Node;
}

/** A node's rules of one family, ready to trace. */
export interface NodeRules {
  readonly mode: ProxyMode;
  /** The restore input / nft transaction(s) the rules came from. */
  readonly text: string;
  trace(packet: TracePacket, localIPs: readonly string[]): TraceResult;
}

/** The rules `input.nodeName`'s kube-proxy would write for one family. */
export function computeNodeRules(input: NodeRulesInput): NodeRules {
  const common = { ipFamily: input.family, nodeName: input.nodeName, clusterCIDR: input.clusterCIDR, nodeIPs: input.nodeIPs };
  if (input.mode === "iptables") {
    // newDualStackIptablesProxier: localhost NodePorts for IPv4 only.
    const p = new IptablesProxier({ ...common, localhostNodePorts: input.family === "IPv4" });
    populate(p, input.services, input.slices, input.node !== undefined ? [input.node] : []);
    return loadNodeRules("iptables", [syncText(p.syncProxyRules())], input.family === "IPv4");
  }
  // nftables' default --nodeport-addresses is `primary`: the node's first IP of the family, as the CLI resolves it.
  const primary = input.nodeIPs.slice(0, 1).map((ip) => `${ip}/${input.family === "IPv4" ? 32 : 128}`);
  const p = new NftablesProxier({
    ...common,
    serviceCIDRs: input.serviceCIDRs,
    nodePortAddresses: primary,
    interfaceAddrs: () => input.nodeIPs,
  });
  populate(p, input.services, input.slices, input.node !== undefined ? [input.node] : []);
  return loadNodeRules("nftables", [syncText(p.syncProxyRules())]);
}

/**
 * Rules from text a kube-proxy wrote, applied in order (a full sync, then later partial ones).
 * `kubeletFirewall`: IPv4 iptables with kubelet's KUBE-FIREWALL jumps.
 */
export function loadNodeRules(mode: ProxyMode, texts: readonly string[], kubeletFirewall = false): NodeRules {
  const text = texts.join("");
  if (mode === "iptables") {
    const rs = new IptablesRuleset({ kubeletJumpRules: kubeletFirewall });
    for (const t of texts) rs.restore(t);
    rs.prepare();
    return { mode, text, trace: (packet, localIPs) => traceIptables(rs, packet, { localIPs }) };
  }
  const rs = new NftablesRuleset();
  for (const t of texts) rs.apply(t);
  return { mode, text, trace: (packet, localIPs) => traceNftables(rs, packet, { localIPs }) };
}

function syncText(r: { readonly data: string } | null): string {
  if (r === null) throw new Error("the proxier is not initialized");
  return r.data;
}
