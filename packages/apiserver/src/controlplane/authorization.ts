/**
 * The control plane's authorization (pkg/controlplane/apiserver's BuildAuthorizer plus the RBAC
 * storage's post-start hook): the `--authorization-mode` union, the RBAC listers it reads (the
 * apiserver's informers of the four RBAC kinds), and `rbac/bootstrap-roles`.
 */
import type { AuthorizationRuleResolver, Authorizer, RuleResolver } from "../authorization/authorizer/interfaces.ts";
import { newAuthorizer } from "../kubeapiserver/authorizer/config.ts";
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
 * Builds the authorizer for `modes`, starting (and syncing) the RBAC informers when RBAC is one of
 * them; `gates` select the bootstrap policy's feature-gated rules (the 1.33 defaults otherwise).
 */
export async function newControlPlaneAuthorization(
  store: Store,
  modes: readonly string[],
  gates: Partial<PolicyFeatureGates> = {},
): Promise<ControlPlaneAuthorization> {
  let informers: RBACInformers | undefined;
  let resolver: DefaultRuleResolver | undefined;
  const cfg = newAuthorizer(modes, () => {
    informers = new RBACInformers(store);
    resolver = new DefaultRuleResolver(informers, informers, informers, informers);
    return resolver;
  });
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
    },
  };
}
