/**
 * The jump rules kube-proxy installs with plain `iptables` calls on a full sync
 * (`iptablesJumpChains` + `iptablesKubeletJumpChains`): EnsureChain, then
 * EnsureRule(Prepend, table, src, extraArgs..., comment, -j dst).
 */
import { chains } from "./names.ts";

export interface JumpChain {
  readonly table: "filter" | "nat";
  readonly dstChain: string;
  readonly srcChain: string;
  readonly comment: string;
  readonly extraArgs: readonly string[];
}

const ctNew = ["-m", "conntrack", "--ctstate", "NEW"] as const;

export const jumpChains: readonly JumpChain[] = [
  {
    table: "filter",
    dstChain: chains.externalServices,
    srcChain: "INPUT",
    comment: "kubernetes externally-visible service portals",
    extraArgs: ctNew,
  },
  {
    table: "filter",
    dstChain: chains.externalServices,
    srcChain: "FORWARD",
    comment: "kubernetes externally-visible service portals",
    extraArgs: ctNew,
  },
  { table: "filter", dstChain: chains.nodePorts, srcChain: "INPUT", comment: "kubernetes health check service ports", extraArgs: [] },
  { table: "filter", dstChain: chains.services, srcChain: "FORWARD", comment: "kubernetes service portals", extraArgs: ctNew },
  { table: "filter", dstChain: chains.services, srcChain: "OUTPUT", comment: "kubernetes service portals", extraArgs: ctNew },
  { table: "filter", dstChain: chains.forward, srcChain: "FORWARD", comment: "kubernetes forwarding rules", extraArgs: [] },
  { table: "filter", dstChain: chains.proxyFirewall, srcChain: "INPUT", comment: "kubernetes load balancer firewall", extraArgs: ctNew },
  { table: "filter", dstChain: chains.proxyFirewall, srcChain: "OUTPUT", comment: "kubernetes load balancer firewall", extraArgs: ctNew },
  { table: "filter", dstChain: chains.proxyFirewall, srcChain: "FORWARD", comment: "kubernetes load balancer firewall", extraArgs: ctNew },
  { table: "nat", dstChain: chains.services, srcChain: "OUTPUT", comment: "kubernetes service portals", extraArgs: [] },
  { table: "nat", dstChain: chains.services, srcChain: "PREROUTING", comment: "kubernetes service portals", extraArgs: [] },
  { table: "nat", dstChain: chains.postrouting, srcChain: "POSTROUTING", comment: "kubernetes postrouting rules", extraArgs: [] },
];

/** Kubelet's duplicate of KUBE-FIREWALL (IPv4 with localhost NodePorts only); never removed by cleanup. */
export const kubeletJumpChains: readonly JumpChain[] = [
  { table: "filter", dstChain: chains.kubeletFirewall, srcChain: "INPUT", comment: "", extraArgs: [] },
  { table: "filter", dstChain: chains.kubeletFirewall, srcChain: "OUTPUT", comment: "", extraArgs: [] },
];

/** The rule arguments of a jump (after `-t table -I src`), as argv without shell quoting. */
export function jumpRuleArgs(j: JumpChain): string[] {
  const comment = j.comment === "" ? [] : ["-m", "comment", "--comment", j.comment];
  return [...j.extraArgs, ...comment, "-j", j.dstChain];
}
