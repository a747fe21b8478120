/** The `kubernetes` Service controller (pkg/controlplane/controller/kubernetesservice/controller.go). */
export {
  kubernetesServiceIP,
  kubernetesServiceName,
  kubernetesServiceNamespace,
  reconcileKubernetesService,
  reconcileKubernetesServiceIn,
} from "./controller.ts";
export type { KubernetesServiceOptions, ReconcileAction } from "./controller.ts";
export { KubernetesServiceController, defaultAdvertiseAddress, defaultEndpointIntervalMs } from "./run.ts";
export type { KubernetesServiceControllerOptions } from "./run.ts";
