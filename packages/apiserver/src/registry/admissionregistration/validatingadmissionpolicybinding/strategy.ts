/**
 * ValidatingAdmissionPolicyBinding REST strategy
 * (pkg/registry/admissionregistration/validatingadmissionpolicybinding/strategy.go): no status;
 * the generation follows the spec.
 */
import {
  setDefaultsValidatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicyBinding,
  type ValidatingAdmissionPolicyBinding,
} from "@servicenet/api/admissionregistration/v1";
import type { KubeObject } from "../../../storage/index.ts";
import { bumpGeneration, type RESTStrategy } from "../../generic/strategy.ts";

const asBinding = (o: KubeObject): ValidatingAdmissionPolicyBinding => {
  (o as { spec?: unknown }).spec ??= {};
  return o as ValidatingAdmissionPolicyBinding;
};

export const validatingAdmissionPolicyBindingStrategy: RESTStrategy = {
  group: "admissionregistration.k8s.io",
  kind: "ValidatingAdmissionPolicyBinding",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  defaults: (o) => setDefaultsValidatingAdmissionPolicyBinding(asBinding(o)),
  prepareForCreate: (o) => {
    o.metadata.generation = 1;
  },
  prepareForUpdate: bumpGeneration,
  validate: (o) => validateValidatingAdmissionPolicyBinding(asBinding(o)),
  validateUpdate: (o) => validateValidatingAdmissionPolicyBinding(asBinding(o)),
};
