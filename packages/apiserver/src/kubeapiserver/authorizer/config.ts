/**
 * pkg/kubeapiserver/authorizer/config.go and modes/modes.go: `--authorization-mode`, a comma list
 * of AlwaysAllow, AlwaysDeny, Webhook and RBAC (default RBAC), built into one union authorizer
 * with the privileged group `system:masters` asked first and then each mode in the order given,
 * and the matching rule resolver for SelfSubjectRulesReview.
 */
import { systemPrivilegedGroup } from "../../authentication/user/user.ts";
import { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer, PrivilegedGroupAuthorizer } from "../../authorization/authorizerfactory/builtin.ts";
import type { Authorizer, RuleResolver } from "../../authorization/authorizer/interfaces.ts";
import type { WebhookAuthorizer } from "../../plugin/pkg/authorizer/webhook/webhook.ts";
import { UnionAuthorizer, UnionRuleResolver } from "../../authorization/union/union.ts";
import { RBACAuthorizer } from "../../plugin/pkg/auth/authorizer/rbac/rbac.ts";
import type { DefaultRuleResolver } from "../../registry/rbac/validation/rule.ts";

export const modeAlwaysAllow = "AlwaysAllow";
export const modeAlwaysDeny = "AlwaysDeny";
export const modeRBAC = "RBAC";
export const modeWebhook = "Webhook";
/** The modes servicenet implements, in modes.go's order (upstream also has ABAC and Node). */
export const authorizationModeChoices: readonly string[] = [modeAlwaysAllow, modeAlwaysDeny, modeWebhook, modeRBAC];
/** kube-apiserver 1.33's default is AlwaysAllow in the library and `Node,RBAC` in kubeadm; servicenet, which has no nodes, defaults to RBAC. */
export const defaultAuthorizationModes: readonly string[] = [modeRBAC];

/** Parses and validates `--authorization-mode` (BuiltInAuthorizationOptions.Validate's messages). */
export function parseAuthorizationModes(value: string): string[] {
  const modes = value
    .split(",")
    .map((m) => m.trim())
    .filter((m) => m !== "");
  if (modes.length === 0) throw new Error("at least one authorization-mode must be passed");
  const seen = new Set<string>();
  for (const m of modes) {
    if (!authorizationModeChoices.includes(m)) throw new Error(`authorization-mode ${JSON.stringify(m)} is not a valid mode`);
    // Go's %q of a []string: `["RBAC" "RBAC"]`.
    if (seen.has(m))
      throw new Error(`authorization-mode [${modes.map((x) => JSON.stringify(x)).join(" ")}] has mode specified more than once`);
    seen.add(m);
  }
  return modes;
}

/** The authorizer and rule resolver of a server (Config.New). */
export interface AuthorizerConfig {
  authorizer: Authorizer;
  ruleResolver: RuleResolver;
  /** Whether RBAC is one of the modes (then the bootstrap policy is reconciled at start-up). */
  rbac: boolean;
}

/**
 * Config.New: `system:masters` first (a privileged group that needs no RBAC rule, so the
 * loopback and admin identities work before any role exists), then each mode in order. `webhook`
 * makes the Webhook mode's authorizer (from `--authorization-webhook-config-file`).
 */
export function newAuthorizer(
  modes: readonly string[],
  ruleResolver: () => DefaultRuleResolver,
  webhook?: () => WebhookAuthorizer,
): AuthorizerConfig {
  const authorizers: Authorizer[] = [new PrivilegedGroupAuthorizer(systemPrivilegedGroup)];
  const resolvers: RuleResolver[] = [];
  let rbac = false;
  for (const mode of modes) {
    switch (mode) {
      case modeAlwaysAllow: {
        const a = new AlwaysAllowAuthorizer();
        authorizers.push(a);
        resolvers.push(a);
        break;
      }
      case modeAlwaysDeny: {
        const a = new AlwaysDenyAuthorizer();
        authorizers.push(a);
        resolvers.push(a);
        break;
      }
      case modeWebhook: {
        if (webhook === undefined) throw new Error("authorization-mode Webhook's authorization config file not passed");
        const a = webhook();
        authorizers.push(a);
        resolvers.push(a);
        break;
      }
      case modeRBAC: {
        const a = new RBACAuthorizer(ruleResolver());
        authorizers.push(a);
        resolvers.push(a);
        rbac = true;
        break;
      }
      default:
        throw new Error(`unknown authorization mode ${JSON.stringify(mode)} specified`);
    }
  }
  return { authorizer: new UnionAuthorizer(authorizers), ruleResolver: new UnionRuleResolver(resolvers), rbac };
}
