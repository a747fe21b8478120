/** The iptables proxier (pkg/proxy/iptables). */
export { IptablesProxier, largeClusterEndpointsThreshold } from "./proxier.ts";
export type { IptablesProxierOptions, IptablesSyncResult } from "./proxier.ts";
export { chainLine, chains, endpointChainName, isServiceChainName, portProtoHash, probability, serviceChainNames } from "./names.ts";
export type { ServiceChainNames } from "./names.ts";
export { jumpChains, jumpRuleArgs, kubeletJumpChains } from "./jump-chains.ts";
export type { JumpChain } from "./jump-chains.ts";
