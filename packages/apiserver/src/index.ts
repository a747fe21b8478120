/** @servicenet/apiserver: storage, REST, allocation, repair and bootstrap. */
export * from "./storage/index.ts";
export { startApiServer, bootstrapNamespaces, type ApiServer, type StartApiServerOptions } from "./controlplane/apiserver.ts";
export { enabledAdmissionPlugins, type AdmissionPluginFlags } from "./kubeapiserver/options/plugins.ts";
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
/** Kubernetes CEL (k8s.io/apiserver/pkg/cel): environments, programs with cost limits, libraries. */
export * as cel from "./apiserver/cel/index.ts";
/** The ValidatingAdmissionPolicy plugin: policies and bindings evaluated against a request. */
export * as validatingAdmissionPolicy from "./admission/plugin/policy/validating/index.ts";
