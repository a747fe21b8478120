/** ServiceCIDR REST strategy (pkg/registry/networking/servicecidr/strategy.go). */
import { validateServiceCIDR, validateServiceCIDRStatusUpdate, validateServiceCIDRUpdate, type ServiceCIDRShape } from "@servicenet/api";
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
  },
  prepareForUpdate: keepStatus,
  validate: (o) => validateServiceCIDR(asCIDR(o)),
  validateUpdate: (o, old) => [...validateServiceCIDRUpdate(asCIDR(o), asCIDR(old)), ...validateServiceCIDR(asCIDR(o)).filter((e) => !e.field.startsWith("metadata"))],
  subresources: {
    status: { prepareForUpdate: resetForStatus, validateUpdate: (o, old) => validateServiceCIDRStatusUpdate(asCIDR(o), asCIDR(old)) },
  },
};
