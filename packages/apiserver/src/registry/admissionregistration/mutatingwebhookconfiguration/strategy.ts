/**
 * MutatingWebhookConfiguration REST strategy
 * (pkg/registry/admissionregistration/mutatingwebhookconfiguration/strategy.go): no status; the
 * generation follows the webhooks; matchConditions are compiled by validation.
 */
import {
  setDefaultsMutatingWebhookConfiguration,
  validateMutatingWebhookConfiguration,
  validateMutatingWebhookConfigurationUpdate,
  type MutatingWebhookConfiguration,
} from "@servicenet/api/admissionregistration/v1";
import { compileAdmissionExpression } from "../../../admission/plugin/webhook/matchconditions/compile.ts";
import type { KubeObject } from "../../../storage/index.ts";
import { bumpGenerationOn, type RESTStrategy } from "../../generic/strategy.ts";

const asConfig = (o: KubeObject): MutatingWebhookConfiguration => o as MutatingWebhookConfiguration;

export const mutatingWebhookConfigurationStrategy: RESTStrategy = {
  group: "admissionregistration.k8s.io",
  kind: "MutatingWebhookConfiguration",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  defaults: (o) => setDefaultsMutatingWebhookConfiguration(asConfig(o)),
  prepareForCreate: (o) => {
    o.metadata.generation = 1;
  },
  prepareForUpdate: bumpGenerationOn("webhooks"),
  validate: (o) => validateMutatingWebhookConfiguration(asConfig(o), compileAdmissionExpression),
  validateUpdate: (o, old) => validateMutatingWebhookConfigurationUpdate(asConfig(o), asConfig(old), compileAdmissionExpression),
};
