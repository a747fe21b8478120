/**
 * How the conversion webhooks are reached from this kube-apiserver (cmd/kube-apiserver/app/
 * apiextensions.go createAPIExtensionsConfig): the service resolver the admission webhooks use,
 * with the loopback for `kubernetes.default.svc`, and the default authentication-info resolver
 * wrapped for the loopback. Unlike the admission plugins, no `--admission-control-config-file`
 * kubeconfig applies: webhookConverterFactory builds its resolver from an empty kubeconfig path.
 */
import type { Store } from "../../../storage/index.ts";
import { newWebhookAgent } from "../../../admission/plugin/webhook/client.ts";
import { newDefaultAuthenticationInfoResolver } from "../../../util/webhook/authentication.ts";
import { newLoopbackServiceResolver, withLoopbackAuthentication, type Loopback } from "../../../util/webhook/loopback.ts";
import { newServiceResolver } from "../../../util/webhook/serviceresolver.ts";
import type { WebhookConverterOptions } from "./webhook-converter.ts";

/** The conversion webhooks' resolver, credentials and connection pool. */
export function conversionWebhookClients(store: Store, enableAggregatorRouting: boolean, loopback: Loopback): WebhookConverterOptions {
  return {
    resolver: newLoopbackServiceResolver(newServiceResolver({ store, enableAggregatorRouting }), loopback),
    auth: withLoopbackAuthentication(newDefaultAuthenticationInfoResolver(""), loopback),
    agent: newWebhookAgent(),
  };
}
