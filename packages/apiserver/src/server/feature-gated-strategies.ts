/**
 * The strategies whose validation compiles CEL under a feature gate. Upstream's validation compiles
 * in `environment.MustBaseEnvSet`, whose libraries follow the gates the server started with
 * (environment/base.go: the AuthzSelectors library only with AuthorizeWithSelectors); here the
 * gates are passed in, so the served table gets the strategies of the server's gates.
 */
import { customResourceDefinitionStrategyFor } from "../apiextensions/registry/customresourcedefinition/strategy.ts";
import { crdStoragePath } from "../apiextensions/apiserver/apiserver.ts";
import {
  mutatingWebhookConfigurationStoragePath,
  validatingAdmissionPolicyStoragePath,
  validatingWebhookConfigurationStoragePath,
} from "../registry/admissionregistration/rest/storage-admissionregistration.ts";
import { mutatingWebhookConfigurationStrategyFor } from "../registry/admissionregistration/mutatingwebhookconfiguration/strategy.ts";
import { validatingAdmissionPolicyStrategyFor } from "../registry/admissionregistration/validatingadmissionpolicy/strategy.ts";
import { validatingWebhookConfigurationStrategyFor } from "../registry/admissionregistration/validatingwebhookconfiguration/strategy.ts";
import type { ResourceDef } from "./resource-def.ts";

/** The feature gates CEL compilation follows. */
export interface CELFeatureGates {
  /** AuthorizeWithSelectors: `fieldSelector()` and `labelSelector()` on authorizer checks. */
  authorizeWithSelectors: boolean;
}

const strategyFor: Record<string, (authorizeWithSelectors: boolean) => ResourceDef["strategy"]> = {
  [validatingAdmissionPolicyStoragePath]: validatingAdmissionPolicyStrategyFor,
  [validatingWebhookConfigurationStoragePath]: validatingWebhookConfigurationStrategyFor,
  [mutatingWebhookConfigurationStoragePath]: mutatingWebhookConfigurationStrategyFor,
  [crdStoragePath]: customResourceDefinitionStrategyFor,
};

/** `resources` with the strategies of `gates` (the table itself when every gate is at its default). */
export function withFeatureGatedStrategies(resources: readonly ResourceDef[], gates: CELFeatureGates): readonly ResourceDef[] {
  if (gates.authorizeWithSelectors) return resources;
  return resources.map((r) => {
    const make = strategyFor[r.storagePath];
    return make ? { ...r, strategy: make(gates.authorizeWithSelectors) } : r;
  });
}
