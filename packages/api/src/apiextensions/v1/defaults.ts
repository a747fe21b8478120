/** apiextensions.k8s.io/v1 defaulting (apiextensions-apiserver pkg/apis/apiextensions/v1/defaults.go). */
import type { CustomResourceDefinition } from "./types.ts";

/**
 * SetDefaults_CustomResourceDefinition: the spec's defaults, and `status.storedVersions` starts as
 * the storage version.
 */
export function setDefaultsCustomResourceDefinition(crd: CustomResourceDefinition): void {
  setDefaultsCustomResourceDefinitionSpec(crd.spec);
  if ((crd.status?.storedVersions ?? []).length === 0) {
    const storage = crd.spec.versions.find((v) => v.storage);
    if (storage) (crd.status ??= {}).storedVersions = [storage.name];
  }
}

/**
 * SetDefaults_CustomResourceDefinitionSpec: singular is the lower-case kind, listKind is
 * `<kind>List`, conversion is `None`, a webhook's review versions are `v1`.
 */
export function setDefaultsCustomResourceDefinitionSpec(spec: CustomResourceDefinition["spec"]): void {
  const names = spec.names;
  if ((names.singular ?? "") === "") names.singular = names.kind.toLowerCase();
  if ((names.listKind ?? "") === "" && names.kind !== "") names.listKind = `${names.kind}List`;
  spec.conversion ??= { strategy: "None" };
  const webhook = spec.conversion.webhook;
  if (spec.conversion.strategy === "Webhook" && webhook && webhook.conversionReviewVersions.length === 0)
    webhook.conversionReviewVersions = ["v1"];
  const svc = webhook?.clientConfig?.service;
  if (svc && svc.port === undefined) svc.port = 443;
}
