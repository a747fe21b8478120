/** Well-known names of the networking.k8s.io ServiceCIDR / IPAddress machinery (KEP-1880). */

export const networkingGroupName = "networking.k8s.io";

/** Name of the default ServiceCIDR the apiserver creates from its flags. */
export const defaultServiceCIDRName = "kubernetes";

/** Finalizer the ServiceCIDR controller keeps while IPAddresses still reference a ServiceCIDR. */
export const serviceCIDRProtectionFinalizer = "networking.k8s.io/service-cidr-finalizer";

/** ServiceCIDR condition type and reason. */
export const serviceCIDRConditionReady = "Ready";
export const serviceCIDRReasonTerminating = "Terminating";

/** Condition messages written by the controllers. */
export const serviceCIDRMessages = {
  ready: "Kubernetes Service CIDR is ready",
  defaultReady: "Kubernetes default Service CIDR is ready",
  terminating: "There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR",
} as const;

/** Labels the Service IP allocator puts on IPAddress objects. */
export const labelIPAddressFamily = "ipaddress.kubernetes.io/ip-family";
export const labelIPAddressManagedBy = "ipaddress.kubernetes.io/managed-by";

/** managed-by value and MetaAllocator name of the Service IP allocator. */
export const ipAllocatorControllerName = "ipallocator.k8s.io";

/** Controller and field-manager names. */
export const serviceCIDRControllerNames = {
  /** apiserver default-ServiceCIDR controller and its SSA field manager. */
  defaultController: "kubernetes-service-cidr-controller",
  /** its PostStartHook. */
  defaultControllerHook: "start-kubernetes-service-cidr-controller",
  /** kube-controller-manager ServiceCIDR controller and its SSA field manager. */
  kcmController: "service-cidr-controller",
  /** IP repair controller. */
  repairController: "ipallocator-repair-controller",
  /** its PostStartHook. */
  repairControllerHook: "start-service-ip-repair-controllers",
} as const;
