/**
 * pkg/kubeapiserver/options/authorization.go BuiltInAuthorizationOptions: `--authorization-mode`
 * and the webhook's flags (`--authorization-webhook-config-file`, `-version`, `-cache-authorized-ttl`,
 * `-cache-unauthorized-ttl`) with kube-apiserver 1.33's defaults, and Validate's errors, every one
 * of them, in upstream's order.
 */
import { authorizationModeChoices, modeWebhook } from "../authorizer/config.ts";
import type { Backoff } from "../../util/webhook/webhook.ts";

/** The webhook's flags (and, for tests, its retry backoff). */
export interface AuthorizationWebhookOptions {
  /** `--authorization-webhook-config-file`: a kubeconfig naming the remote service and this server's credentials. */
  configFile: string;
  /** `--authorization-webhook-version` (default v1beta1, as kube-apiserver 1.33): the SubjectAccessReview version sent and expected. */
  version?: string;
  /** `--authorization-webhook-cache-authorized-ttl` (default 5m). */
  cacheAuthorizedTTLMs?: number;
  /** `--authorization-webhook-cache-unauthorized-ttl` (default 30s). */
  cacheUnauthorizedTTLMs?: number;
  /** DefaultAuthWebhookRetryBackoff (500 ms, factor 1.5, 5 steps); not a flag upstream either. */
  retryBackoff?: Backoff;
}

export const defaultWebhookVersion = "v1beta1";
export const defaultWebhookCacheAuthorizedTTLMs = 5 * 60_000;
export const defaultWebhookCacheUnauthorizedTTLMs = 30_000;

/** Validate (the legacy flags' part): every error, each as upstream words it. */
export function validateBuiltInAuthorizationOptions(modes: readonly string[], webhook: AuthorizationWebhookOptions | undefined): string[] {
  const errs: string[] = [];
  if (modes.length === 0) errs.push("at least one authorization-mode must be passed");
  const configFile = webhook?.configFile ?? "";
  for (const mode of modes) {
    if (!authorizationModeChoices.includes(mode)) errs.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    if (mode === modeWebhook && configFile === "") errs.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (configFile !== "" && !modes.includes(modeWebhook))
    errs.push("cannot specify --authorization-webhook-config-file without mode Webhook");
  // Go's %q of a []string: `["RBAC" "RBAC"]`.
  if (new Set(modes).size !== modes.length)
    errs.push(`authorization-mode [${modes.map((x) => JSON.stringify(x)).join(" ")}] has mode specified more than once`);
  const steps = webhook?.retryBackoff?.steps;
  if (steps !== undefined && steps <= 0) errs.push(`number of webhook retry attempts must be greater than 0, but is: ${steps}`);
  return errs;
}

/** utilerrors.NewAggregate's message: one error as is, several in brackets. */
export function aggregateErrors(errs: readonly string[]): string {
  return errs.length === 1 ? errs[0]! : `[${errs.join(", ")}]`;
}
