/** @servicenet/apiserver: storage, REST, allocation, repair and bootstrap. */
export * from "./storage/index.ts";
export { startApiServer, bootstrapNamespaces, type ApiServer, type StartApiServerOptions } from "./controlplane/apiserver.ts";
export { startServer, type APIServerConfig, type RunningServer } from "./server/server.ts";
export { resourceTable, type ResourceDef } from "./server/resources.ts";
export {
  allocatorMode,
  featureGatesForMode,
  parseFeatureGates,
  formatFeatureGates,
  defaultFeatureGates,
  type AllocatorMode,
  type FeatureGates,
} from "./features/kube-features.ts";
export { defaultServiceClusterIPRange } from "./controlplane/apiserver.ts";
