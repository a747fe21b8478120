/** Shared proxier pieces (pkg/proxy). */
export { BaseProxier } from "./base-proxier.ts";
export type { BaseProxierOptions, SyncChanges } from "./base-proxier.ts";
export { compareEndpoints, makeEndpoint } from "./endpoint.ts";
export type { Endpoint } from "./endpoint.ts";
export { serviceCIDRStrings } from "./provider.ts";
export type { Provider } from "./provider.ts";
export {
  cidrsOfFamily,
  defaultStickyMaxAgeSeconds,
  externallyAccessible,
  getClusterIPByFamily,
  ipsOfFamily,
  newServicePortInfo,
  shouldSkipService,
  usesClusterEndpoints,
  usesLocalEndpoints,
} from "./service-port.ts";
export type { ServicePortInfo } from "./service-port.ts";
export { namespacedNameString, servicePortKey, servicePortNameString } from "./service-port-name.ts";
export type { NamespacedName, ServicePortName } from "./service-port-name.ts";
export { availableForTopology, categorizeEndpoints, labelTopologyZone, topologyModeFromHints } from "./topology.ts";
export type { CategorizedEndpoints, TopologyContext, TopologyMode } from "./topology.ts";
