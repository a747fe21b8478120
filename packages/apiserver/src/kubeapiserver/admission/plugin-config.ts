/**
 * The per-plugin configuration of the enabled admission plugins, read once at start-up
 * (k8s.io/apiserver/pkg/server/options/admission.go ApplyTo: ReadAdmissionConfiguration, then each
 * plugin's factory with its configuration, admission/plugins.go InitPlugin). Of the plugins this
 * server implements, the two webhook plugins take a configuration (generic/webhook.go NewWebhook:
 * LoadConfig, NewDefaultAuthenticationInfoResolver). Errors read as kube-apiserver's start-up
 * errors, so a bad file stops the start before anything is opened.
 */
import { readAdmissionConfiguration } from "../../admission/config.ts";
import { loadConfig } from "../../admission/plugin/webhook/config/kubeconfig.ts";
import { mutatingAdmissionWebhookPluginName } from "../../admission/plugin/webhook/mutating/plugin.ts";
import { validatingAdmissionWebhookPluginName } from "../../admission/plugin/webhook/validating/plugin.ts";
import { newDefaultAuthenticationInfoResolver, type AuthenticationInfoResolver } from "../../util/webhook/authentication.ts";

/** What the enabled plugins' configuration gives them. */
export interface AdmissionPluginConfig {
  /** The webhook plugins' client credentials, by plugin name. */
  webhookAuth: ReadonlyMap<string, AuthenticationInfoResolver>;
}

const webhookPlugins = [mutatingAdmissionWebhookPluginName, validatingAdmissionWebhookPluginName];

/**
 * Reads `configFile` (`--admission-control-config-file`, "" for none) for the `enabled` plugins;
 * throws `failed to initialize admission: ...` as kube-apiserver's BuildGenericConfig.
 */
export function loadAdmissionPluginConfig(enabled: readonly string[], configFile: string): AdmissionPluginConfig {
  const fail = (e: unknown): Error => new Error(`failed to initialize admission: ${(e as Error).message}`);
  let provider;
  try {
    provider = readAdmissionConfiguration(enabled, configFile);
  } catch (e) {
    throw fail(new Error(`failed to read plugin config: ${(e as Error).message}`));
  }
  const webhookAuth = new Map<string, AuthenticationInfoResolver>();
  for (const name of enabled.filter((n) => webhookPlugins.includes(n))) {
    try {
      webhookAuth.set(name, newDefaultAuthenticationInfoResolver(loadConfig(provider.configFor(name))));
    } catch (e) {
      throw fail(new Error(`couldn't init admission plugin "${name}": ${(e as Error).message}`));
    }
  }
  return { webhookAuth };
}
