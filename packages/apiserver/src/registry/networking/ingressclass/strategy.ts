/** networking.k8s.io IngressClass REST strategy (pkg/registry/networking/ingressclass/strategy.go). */
import { setDefaultsIngressClass, validateIngressClass, validateIngressClassUpdate, type IngressClass } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import { bumpGeneration, type RESTStrategy } from "../../generic/strategy.ts";

/** Cluster-scoped; generation starts at 1 and follows spec changes; no status. */
export const ingressClassStrategy: RESTStrategy<IngressClass & KubeObject> = {
  group: "networking.k8s.io",
  kind: "IngressClass",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaults: setDefaultsIngressClass,
  prepareForCreate: (o) => {
    o.metadata.generation = 1;
  },
  prepareForUpdate: bumpGeneration,
  validate: validateIngressClass,
  validateUpdate: validateIngressClassUpdate,
};
