/** The nftables proxier (pkg/proxy/nftables). */
export { NftablesProxier } from "./proxier.ts";
export type { NftablesProxierOptions, NftablesSyncResult } from "./proxier.ts";
export { baseRules } from "./base-rules.ts";
export type { BaseRulesOptions } from "./base-rules.ts";
export { addElementLine, deleteElementLine, diffElements } from "./element-storage.ts";
export type { Element } from "./element-storage.ts";
export {
  hashAndTruncate,
  isServiceChainName as isNftServiceChainName,
  kubeProxyTable,
  maps,
  nftEndpointChainBase,
  nftFamily,
  nftServiceChainBase,
  sets,
} from "./names.ts";
