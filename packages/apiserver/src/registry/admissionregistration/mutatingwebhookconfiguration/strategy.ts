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
import { matchConditionCompiler } from "../../../admission/plugin/webhook/matchconditions/compile.ts";
import type { KubeObject } from "../../../storage/index.ts";
import { webhookConfigurationStrategy } from "../webhook-configuration-strategy.ts";

/** The strategy under the AuthorizeWithSelectors gate: matchConditions compile as the plugin compiles them. */
export function mutatingWebhookConfigurationStrategyFor(authorizeWithSelectors: boolean) {
  const compile = matchConditionCompiler(authorizeWithSelectors);
  return webhookConfigurationStrategy<MutatingWebhookConfiguration & KubeObject>({
    kind: "MutatingWebhookConfiguration",
    defaults: setDefaultsMutatingWebhookConfiguration,
    validate: (c) => validateMutatingWebhookConfiguration(c, compile),
    validateUpdate: (c, old) => validateMutatingWebhookConfigurationUpdate(c, old, compile),
  });
}

export const mutatingWebhookConfigurationStrategy = mutatingWebhookConfigurationStrategyFor(true);
