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
import { matchConditionCompiler } from "../../../admission/plugin/webhook/matchconditions/compile.ts";
import type { KubeObject } from "../../../storage/index.ts";
import { webhookConfigurationStrategy } from "../webhook-configuration-strategy.ts";

/** The strategy under the AuthorizeWithSelectors gate: matchConditions compile as the plugin compiles them. */
export function validatingWebhookConfigurationStrategyFor(authorizeWithSelectors: boolean) {
  const compile = matchConditionCompiler(authorizeWithSelectors);
  return webhookConfigurationStrategy<ValidatingWebhookConfiguration & KubeObject>({
    kind: "ValidatingWebhookConfiguration",
    defaults: setDefaultsValidatingWebhookConfiguration,
    validate: (c) => validateValidatingWebhookConfiguration(c, compile),
    validateUpdate: (c, old) => validateValidatingWebhookConfigurationUpdate(c, old, compile),
  });
}

export const validatingWebhookConfigurationStrategy = validatingWebhookConfigurationStrategyFor(true);
