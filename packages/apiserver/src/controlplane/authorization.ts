/**
 * The control plane's authorization (pkg/controlplane/apiserver's BuildAuthorizer plus the RBAC
 * storage's post-start hook): the `--authorization-mode` union, the RBAC listers it reads (the
 * apiserver's informers of the four RBAC kinds), the Webhook mode's client of the service its
 * kubeconfig names, and `rbac/bootstrap-roles`.
 */
import type { AuthorizationRuleResolver, Authorizer, RuleResolver } from "../authorization/authorizer/interfaces.ts";
import { newAuthorizer } from "../kubeapiserver/authorizer/config.ts";
import {
  aggregateErrors,
  defaultWebhookCacheAuthorizedTTLMs,
  defaultWebhookCacheUnauthorizedTTLMs,
  defaultWebhookVersion,
  validateBuiltInAuthorizationOptions,
  type AuthorizationWebhookOptions,
} from "../kubeapiserver/options/authorization.ts";
import { WebhookAuthorizer } from "../plugin/pkg/authorizer/webhook/webhook.ts";
import { GenericWebhook, loadKubeconfig } from "../util/webhook/webhook.ts";
import { RBACInformers } from "../plugin/pkg/auth/authorizer/rbac/listers.ts";
import type { GenericStore } from "../registry/generic/store.ts";
import type { PolicyFeatureGates } from "../plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy-gates.ts";
import { bootstrapPolicy, ensureRBACPolicy } from "../registry/rbac/rest/ensure-rbac-policy.ts";
import { DefaultRuleResolver } from "../registry/rbac/validation/rule.ts";
import type { Store } from "../storage/index.ts";
import type { Logger } from "@servicenet/component-base/logs";

export interface ControlPlaneAuthorization {
  authorizer: Authorizer;
  /** The RBAC rule resolver (escalation checks); undefined without RBAC. */
  ruleResolver: AuthorizationRuleResolver | undefined;
  /** The union's rules (SelfSubjectRulesReview). */
  rulesReviewer: RuleResolver;
  /** The name of the post-start hook that runs {@link bootstrap}: `rbac/bootstrap-roles` with RBAC, else undefined. */
  postStartHook: string | undefined;
  /** Runs the post-start hook and waits until the caches hold its bindings; resolves at once without RBAC. */
  bootstrap(stores: ReadonlyMap<string, GenericStore>, logger: Logger): Promise<void>;
  stop(): void;
}

/**
 * The Webhook mode's authorizer (config.go's ModeWebhook case: LoadKubeconfig, then webhook.New
 * with the flags' version and TTLs); an unknown version fails as webhook.go's
 * subjectAccessReviewInterfaceFromConfig.
 */
function newWebhookAuthorizer(
  o: AuthorizationWebhookOptions,
  authorizeWithSelectors: boolean,
): { authorizer: WebhookAuthorizer; close(): void } {
  const version = o.version ?? defaultWebhookVersion;
  if (version !== "v1" && version !== "v1beta1")
    throw new Error(`unsupported webhook authorizer version ${JSON.stringify(version)}, supported versions are "v1", "v1beta1"`);
  const client = new GenericWebhook(loadKubeconfig(o.configFile));
  const authorizer = new WebhookAuthorizer(client, {
    version,
    authorizedTTLMs: o.cacheAuthorizedTTLMs ?? defaultWebhookCacheAuthorizedTTLMs,
    unauthorizedTTLMs: o.cacheUnauthorizedTTLMs ?? defaultWebhookCacheUnauthorizedTTLMs,
    ...(o.retryBackoff ? { retryBackoff: o.retryBackoff } : {}),
    authorizeWithSelectors,
  });
  return { authorizer, close: () => client.close() };
}

/** What the authorization needs besides the modes. */
export interface ControlPlaneAuthorizationOptions {
  /** The bootstrap policy's feature-gated rules (the 1.33 defaults otherwise). */
  gates?: Partial<PolicyFeatureGates>;
  /** The Webhook mode's flags; required with it, refused without it (Validate). */
  webhook?: AuthorizationWebhookOptions;
  /** The AuthorizeWithSelectors feature gate (default on): selectors go with the webhook's reviews. */
  authorizeWithSelectors?: boolean;
}

/**
 * Builds the authorizer for `modes`, starting (and syncing) the RBAC informers when RBAC is one of
 * them; fails with Validate's errors when the modes and the webhook's flags do not fit together.
 */
export async function newControlPlaneAuthorization(
  store: Store,
  modes: readonly string[],
  o: ControlPlaneAuthorizationOptions = {},
): Promise<ControlPlaneAuthorization> {
  const errs = validateBuiltInAuthorizationOptions(modes, o.webhook);
  if (errs.length > 0) throw new Error(aggregateErrors(errs));
  const gates = o.gates ?? {};
  let informers: RBACInformers | undefined;
  let resolver: DefaultRuleResolver | undefined;
  let webhook: { authorizer: WebhookAuthorizer; close(): void } | undefined;
  const webhookOptions = o.webhook;
  const cfg = newAuthorizer(
    modes,
    () => {
      informers = new RBACInformers(store);
      resolver = new DefaultRuleResolver(informers, informers, informers, informers);
      return resolver;
    },
    webhookOptions && (() => (webhook = newWebhookAuthorizer(webhookOptions, o.authorizeWithSelectors ?? true)).authorizer),
  );
  if (informers) {
    informers.start();
    await informers.waitForSync();
  }
  return {
    authorizer: cfg.authorizer,
    ruleResolver: resolver,
    rulesReviewer: cfg.ruleResolver,
    postStartHook: cfg.rbac ? "rbac/bootstrap-roles" : undefined,
    async bootstrap(stores, log) {
      if (!informers) return;
      const policy = bootstrapPolicy(gates);
      await ensureRBACPolicy(policy, stores, log);
      // The authorizer reads the caches: wait until they hold what was just written.
      const inf = informers;
      const want = policy.clusterRoleBindings.map((b) => b.metadata.name ?? "");
      const wantNamespaced = Object.values(policy.roleBindings)
        .flat()
        .map((b) => `${b.metadata.namespace ?? ""}/${b.metadata.name ?? ""}`);
      const synced = () =>
        want.every((n) => inf.clusterRoleBindings.get(n) !== undefined) &&
        wantNamespaced.every((k) => inf.roleBindings.get(k) !== undefined);
      const deadline = Date.now() + 10_000;
      while (!synced() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    },
    stop() {
      informers?.stop();
      webhook?.close();
    },
  };
}
