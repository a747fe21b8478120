/** The meta proxier (pkg/proxy/metaproxier). */
export { MetaProxier } from "./meta-proxier.ts";
export type { MetaProxierOptions } from "./meta-proxier.ts";
export { newDualStackIptablesProxier, newDualStackNftablesProxier } from "./dual-stack.ts";
export type { DualStack, PerFamily } from "./dual-stack.ts";
