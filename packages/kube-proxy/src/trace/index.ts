/** The packet tracer: kube-proxy's iptables and nftables rules evaluated for one new connection. */
export type {
  Hook,
  TraceNode,
  TraceOrigin,
  TraceOutcome,
  TracePacket,
  TraceProtocol,
  TraceResult,
  TraceStep,
  TraceVerdict,
} from "./types.ts";
export { flowMasquerade, flowOutput } from "./types.ts";
export { IptablesRuleset } from "./iptables/ruleset.ts";
export type { IptablesRulesetOptions } from "./iptables/ruleset.ts";
export { traceIptables } from "./iptables/evaluate.ts";
export { NftablesRuleset } from "./nftables/ruleset.ts";
export { traceNftables } from "./nftables/evaluate.ts";
export { computeNodeRules, loadNodeRules } from "./node-rules.ts";
export type { NodeRules, NodeRulesInput, ProxyMode } from "./node-rules.ts";
export { joinHostPort, splitHostPort } from "./addresses.ts";
export { nodeServiceEndpoints } from "./node-endpoints.ts";
export type { NodeEndpointsInput, NodeServicePort } from "./node-endpoints.ts";
