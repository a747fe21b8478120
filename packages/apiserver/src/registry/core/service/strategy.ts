/**
 * Service REST strategy (pkg/registry/core/service/strategy.go). ClusterIP and NodePort
 * allocation is NOT done here: it belongs to the Service storage pipeline (begin -> allocate ->
 * strategy -> validate -> persist), which is wired in a later step. Until then a Service is
 * defaulted and validated, and stored with whatever clusterIP(s) it was given.
 */
import {
  getWarningsForService,
  setDefaultsService,
  validateServiceCreate,
  validateServiceStatusUpdate,
  validateServiceUpdate,
  type Service,
} from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import { resetForStatus, type RESTStrategy } from "../../generic/strategy.ts";
import { dropTypeDependentFields, trimFieldsForDualStackDowngrade } from "./strategy-fields.ts";

/**
 * Go encodes `ServiceStatus.LoadBalancer` (a struct, so `omitempty` never drops it) even when
 * empty: every Service kube-apiserver returns has at least `status: {loadBalancer: {}}`.
 */
function withLoadBalancerStatus(o: KubeObject): void {
  const status = (o["status"] ??= {}) as { loadBalancer?: unknown };
  status.loadBalancer ??= {};
}

export const serviceStrategy: RESTStrategy<Service> = {
  group: "",
  kind: "Service",
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  returnDeletedObject: true,
  defaults: (o) => {
    // A body without a spec is defaulted as Go's zero ServiceSpec.
    (o as KubeObject)["spec"] ??= {};
    setDefaultsService(o);
  },
  prepareForCreate: (o) => {
    o["status"] = { loadBalancer: {} };
  },
  prepareForUpdate: (o, old) => {
    if (old.status === undefined) delete o.status;
    else o.status = structuredClone(old.status);
    dropTypeDependentFields(o, old);
    trimFieldsForDualStackDowngrade(o, old);
    withLoadBalancerStatus(o);
  },
  validate: validateServiceCreate,
  validateUpdate: validateServiceUpdate,
  // Non-canonical IPs are accepted (and stored as sent), with upstream's warnings.
  warningsOnCreate: getWarningsForService,
  warningsOnUpdate: (o) => getWarningsForService(o),
  subresources: {
    status: {
      prepareForUpdate: (o, old) => {
        resetForStatus(o, old);
        withLoadBalancerStatus(o);
      },
      validateUpdate: validateServiceStatusUpdate,
    },
  },
};
