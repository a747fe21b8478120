/** @servicenet/kube-proxy: per-family iptables and nftables proxiers under a meta proxier; an API client over HTTP only. */
export * from "./tracker/index.ts";
export * from "./proxy/index.ts";
export * from "./iptables/index.ts";
export * from "./nftables/index.ts";
export * from "./metaproxier/index.ts";
export * from "./metrics/index.ts";
export * from "./runner/index.ts";
export * from "./conntrack/index.ts";
export * from "./trace/index.ts";
export { parseOptions, usage } from "./cmd/options.ts";
export type { ProxyServerOptions } from "./cmd/options.ts";
export { ensureProxySysctls, requiredTools, runProxyServer } from "./cmd/server.ts";
export type { RunningProxyServer } from "./cmd/server.ts";
export { ServiceHealthServer, serviceHealthBody } from "./healthcheck/service-health.ts";
export type { ServiceHealthReport, ServiceHealthServerOptions } from "./healthcheck/service-health.ts";
export {
  detectLocalByBridgeInterface,
  detectLocalByCIDR,
  detectLocalByInterfaceNamePrefix,
  noOpLocalDetector,
} from "./util/local-detector.ts";
export type { LocalTrafficDetector } from "./util/local-detector.ts";
export { hostInterfaceAddrs, isLoopbackIP, NodePortAddresses } from "./util/nodeport-addresses.ts";
export type { InterfaceAddrs } from "./util/nodeport-addresses.ts";
export { KubeProxyConfigurationSchema } from "./apis/config/v1alpha1/types.ts";
export type { KubeProxyConfiguration } from "./apis/config/v1alpha1/types.ts";
export { setDefaultsKubeProxyConfiguration } from "./apis/config/v1alpha1/defaults.ts";
export { decodeKubeProxyConfiguration, encodeKubeProxyConfiguration } from "./apis/config/load.ts";
export { validateKubeProxyConfiguration } from "./apis/config/validation/validation.ts";
export { cleanupIptables, cleanupNftables, platformCleanup } from "./runner/cleanup.ts";
