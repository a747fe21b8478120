/**
 * Defaulting of the webhook configurations (pkg/apis/admissionregistration/v1/defaults.go
 * SetDefaults_ValidatingWebhook, SetDefaults_MutatingWebhook, SetDefaults_Rule,
 * SetDefaults_ServiceReference).
 */
import type { MutatingWebhookConfiguration, ValidatingWebhook, ValidatingWebhookConfiguration } from "./webhook-types.ts";

function defaultWebhook(w: ValidatingWebhook): void {
  w.failurePolicy ??= "Fail";
  w.matchPolicy ??= "Equivalent";
  w.namespaceSelector ??= {};
  w.objectSelector ??= {};
  w.timeoutSeconds ??= 10;
  for (const r of w.rules ?? []) r.scope ??= "*";
  if (w.clientConfig?.service) w.clientConfig.service.port ??= 443;
}

/** SetDefaults_ValidatingWebhook on every webhook. */
export function setDefaultsValidatingWebhookConfiguration(c: ValidatingWebhookConfiguration): void {
  for (const w of c.webhooks ?? []) defaultWebhook(w);
}

/** SetDefaults_MutatingWebhook on every webhook: as validating, and reinvocationPolicy Never. */
export function setDefaultsMutatingWebhookConfiguration(c: MutatingWebhookConfiguration): void {
  for (const w of c.webhooks ?? []) {
    defaultWebhook(w);
    w.reinvocationPolicy ??= "Never";
  }
}
