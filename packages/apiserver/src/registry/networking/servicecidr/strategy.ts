/**
 * ServiceCIDR REST strategy (pkg/registry/networking/servicecidr/strategy.go).
 *
 * The strategy adds no finalizer: the controller-manager's ServiceCIDR controller adds
 * `networking.k8s.io/service-cidr-finalizer` to every live ServiceCIDR and removes it once no
 * IPAddress would be orphaned (pkg/controller/servicecidrs/servicecidrs_controller.go sync,
 * addServiceCIDRFinalizerIfNeeded), as upstream.
 */
import { validateServiceCIDR, validateServiceCIDRStatusUpdate, validateServiceCIDRUpdate, type ServiceCIDRShape } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import { keepStatus, resetForStatus, type RESTStrategy } from "../../generic/strategy.ts";

/** A ServiceCIDR of any served version (v1, v1beta1). */
type ServiceCIDRObject = KubeObject & ServiceCIDRShape;

/** A body without a spec is validated as Go's zero ServiceCIDRSpec. */
const withSpec = (o: ServiceCIDRObject): ServiceCIDRObject => {
  (o as KubeObject)["spec"] ??= {};
  return o;
};

export const serviceCIDRStrategy: RESTStrategy<ServiceCIDRObject> = {
  group: "networking.k8s.io",
  kind: "ServiceCIDR",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: (o) => {
    o["status"] = {};
  },
  prepareForUpdate: keepStatus,
  validate: (o) => validateServiceCIDR(withSpec(o)),
  // Upstream's ValidateUpdate runs ValidateServiceCIDRUpdate alone (it re-validates the spec itself
  // when a second CIDR is added).
  validateUpdate: (o, old) => validateServiceCIDRUpdate(withSpec(o), withSpec(old)),
  subresources: {
    status: { prepareForUpdate: resetForStatus, validateUpdate: (o, old) => validateServiceCIDRStatusUpdate(withSpec(o), withSpec(old)) },
  },
};
