/**
 * ValidatingWebhookConfiguration REST strategy
 * (pkg/registry/admissionregistration/validatingwebhookconfiguration/strategy.go): no status; the
 * generation follows the webhooks; matchConditions are compiled by validation.
 */
import {
  setDefaultsValidatingWebhookConfiguration,
  validateValidatingWebhookConfiguration,
  validateValidatingWebhookConfigurationUpdate,
  type ValidatingWebhookConfiguration,
} from "@servicenet/api/admissionregistration/v1";
import { compileAdmissionExpression } from "../../../admission/plugin/webhook/matchconditions/compile.ts";
import type { KubeObject } from "../../../storage/index.ts";
import { bumpGenerationOn, type RESTStrategy } from "../../generic/strategy.ts";

const asConfig = (o: KubeObject): ValidatingWebhookConfiguration => o as ValidatingWebhookConfiguration;

export const validatingWebhookConfigurationStrategy: RESTStrategy = {
  group: "admissionregistration.k8s.io",
  kind: "ValidatingWebhookConfiguration",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  defaults: (o) => setDefaultsValidatingWebhookConfiguration(asConfig(o)),
  prepareForCreate: (o) => {
    o.metadata.generation = 1;
  },
  prepareForUpdate: bumpGenerationOn("webhooks"),
  validate: (o) => validateValidatingWebhookConfiguration(asConfig(o), compileAdmissionExpression),
  validateUpdate: (o, old) => validateValidatingWebhookConfigurationUpdate(asConfig(o), asConfig(old), compileAdmissionExpression),
};
