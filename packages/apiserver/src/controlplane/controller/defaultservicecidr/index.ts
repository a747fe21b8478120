/** The apiserver's default ServiceCIDR controller (PostStartHook start-kubernetes-service-cidr-controller). */
export {
  DefaultServiceCIDRController,
  defaultServiceCIDRControllerName,
  defaultServiceCIDRFirstSyncPollMs,
  defaultServiceCIDRIntervalMs,
  newServiceCIDRStore,
} from "./default-servicecidr-controller.ts";
export type { DefaultServiceCIDRControllerOptions, ServiceCIDRWriter } from "./default-servicecidr-controller.ts";
