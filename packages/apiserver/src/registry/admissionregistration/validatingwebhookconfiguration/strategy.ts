/**
 * ValidatingWebhookConfiguration REST strategy
 * (pkg/registry/admissionregistration/validatingwebhookconfiguration/strategy.go); matchConditions
 * are compiled by validation.
 */
import {
  setDefaultsValidatingWebhookConfiguration,
  validateValidatingWebhookConfiguration,
  validateValidatingWebhookConfigurationUpdate,
  type ValidatingWebhookConfiguration,
} from "@servicenet/api/admissionregistration/v1";
import { compileAdmissionExpression } from "../../../admission/plugin/webhook/matchconditions/compile.ts";
import type { KubeObject } from "../../../storage/index.ts";
import { webhookConfigurationStrategy } from "../webhook-configuration-strategy.ts";

export const validatingWebhookConfigurationStrategy = webhookConfigurationStrategy<ValidatingWebhookConfiguration & KubeObject>({
  kind: "ValidatingWebhookConfiguration",
  defaults: setDefaultsValidatingWebhookConfiguration,
  validate: (c) => validateValidatingWebhookConfiguration(c, compileAdmissionExpression),
  validateUpdate: (c, old) => validateValidatingWebhookConfigurationUpdate(c, old, compileAdmissionExpression),
});
