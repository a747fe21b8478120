/**
 * staging/src/k8s.io/apiserver/pkg/authorization/union/union.go: authorizers asked in order; the
 * first Allow or Deny decides, and NoOpinion from all of them joins their reasons and errors.
 */
import type { UserInfo } from "../../authentication/user/user.ts";
import type {
  Attributes,
  AuthorizationResult,
  Authorizer,
  NonResourceRuleInfo,
  ResourceRuleInfo,
  RuleResolver,
  RulesResult,
} from "../authorizer/interfaces.ts";

/** union.New. */
export class UnionAuthorizer implements Authorizer {
  readonly authorizers: readonly Authorizer[];

  constructor(authorizers: readonly Authorizer[]) {
    this.authorizers = authorizers;
  }

  async authorize(a: Attributes): Promise<AuthorizationResult> {
    const reasons: string[] = [];
    const errors: string[] = [];
    for (const z of this.authorizers) {
      const r = await z.authorize(a);
      if (r.error !== undefined) errors.push(r.error);
      if (r.reason !== "") reasons.push(r.reason);
      if (r.decision === "Allow" || r.decision === "Deny")
        return { decision: r.decision, reason: r.reason, ...(r.error !== undefined ? { error: r.error } : {}) };
    }
    const res: AuthorizationResult = { decision: "NoOpinion", reason: reasons.join("\n") };
    if (errors.length > 0) res.error = errors.length === 1 ? errors[0]! : `[${errors.join(", ")}]`;
    return res;
  }
}

/** union.NewRuleResolvers: every resolver's rules concatenated; incomplete if any is. */
export class UnionRuleResolver implements RuleResolver {
  readonly resolvers: readonly RuleResolver[];

  constructor(resolvers: readonly RuleResolver[]) {
    this.resolvers = resolvers;
  }

  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    const errors: string[] = [];
    let incomplete = false;
    for (const r of this.resolvers) {
      const res = await r.rulesFor(user, namespace);
      resourceRules.push(...res.resourceRules);
      nonResourceRules.push(...res.nonResourceRules);
      incomplete ||= res.incomplete;
      if (res.error !== undefined) errors.push(res.error);
    }
    return {
      resourceRules,
      nonResourceRules,
      incomplete,
      ...(errors.length > 0 ? { error: errors.length === 1 ? errors[0]! : `[${errors.join(", ")}]` } : {}),
    };
  }
}
