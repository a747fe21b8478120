/**
 * MutatingWebhookConfiguration REST strategy
 * (pkg/registry/admissionregistration/mutatingwebhookconfiguration/strategy.go); matchConditions
 * are compiled by validation.
 */
import {
  setDefaultsMutatingWebhookConfiguration,
  validateMutatingWebhookConfiguration,
  validateMutatingWebhookConfigurationUpdate,
  type MutatingWebhookConfiguration,
} from "@servicenet/api/admissionregistration/v1";
import { compileAdmissionExpression } from "../../../admission/plugin/webhook/matchconditions/compile.ts";
import type { KubeObject } from "../../../storage/index.ts";
import { webhookConfigurationStrategy } from "../webhook-configuration-strategy.ts";

export const mutatingWebhookConfigurationStrategy = webhookConfigurationStrategy<MutatingWebhookConfiguration & KubeObject>({
  kind: "MutatingWebhookConfiguration",
  defaults: setDefaultsMutatingWebhookConfiguration,
  validate: (c) => validateMutatingWebhookConfiguration(c, compileAdmissionExpression),
  validateUpdate: (c, old) => validateMutatingWebhookConfigurationUpdate(c, old, compileAdmissionExpression),
});
