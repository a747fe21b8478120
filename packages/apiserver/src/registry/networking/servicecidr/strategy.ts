/**
 * ServiceCIDR REST strategy (pkg/registry/networking/servicecidr/strategy.go).
 *
 * Deviation: the protection finalizer is added here on create. Upstream the controller-manager's
 * ServiceCIDR controller adds it on the add event, which leaves a window (or, without a
 * controller-manager, forever) in which a DELETE removes a ServiceCIDR whose IPs are in use.
 * The controller-manager still removes it once nothing blocks the deletion.
 */
import {
  serviceCIDRProtectionFinalizer,
  validateServiceCIDR,
  validateServiceCIDRStatusUpdate,
  validateServiceCIDRUpdate,
  type ServiceCIDRShape,
} from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import { keepStatus, resetForStatus, type RESTStrategy } from "../../generic/strategy.ts";

const asCIDR = (o: KubeObject): ServiceCIDRShape => {
  (o as { spec?: unknown }).spec ??= {};
  return o as unknown as ServiceCIDRShape;
};

export const serviceCIDRStrategy: RESTStrategy = {
  group: "networking.k8s.io",
  kind: "ServiceCIDR",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: (o) => {
    o["status"] = {};
    const finalizers = (o.metadata["finalizers"] as string[] | undefined) ?? [];
    if (!finalizers.includes(serviceCIDRProtectionFinalizer)) o.metadata["finalizers"] = [...finalizers, serviceCIDRProtectionFinalizer];
  },
  prepareForUpdate: keepStatus,
  validate: (o) => validateServiceCIDR(asCIDR(o)),
  // Upstream's ValidateUpdate runs ValidateServiceCIDRUpdate alone (it re-validates the spec itself
  // when a second CIDR is added).
  validateUpdate: (o, old) => validateServiceCIDRUpdate(asCIDR(o), asCIDR(old)),
  subresources: {
    status: { prepareForUpdate: resetForStatus, validateUpdate: (o, old) => validateServiceCIDRStatusUpdate(asCIDR(o), asCIDR(old)) },
  },
};
