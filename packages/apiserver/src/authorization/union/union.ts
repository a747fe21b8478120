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

  /**
   * The decision, without a promise while every member asked answers without one (RBAC and the
   * built-in authorizers always do; the webhook authorizer when its cache holds the answer), so
   * that callers evaluating synchronously (CEL's authorizer library) wait only when they must.
   */
  authorize(a: Attributes): AuthorizationResult | Promise<AuthorizationResult> {
    return this.#from(0, a, new UnionDecision());
  }

  #from(i: number, a: Attributes, d: UnionDecision): AuthorizationResult | Promise<AuthorizationResult> {
    for (; i < this.authorizers.length; i++) {
      const r = this.authorizers[i]!.authorize(a);
      if (r instanceof Promise) {
        const next = i + 1;
        return r.then((res) => d.add(res) ?? this.#from(next, a, d));
      }
      const decided = d.add(r);
      if (decided) return decided;
    }
    return d.noOpinion();
  }
}

/** The union's fold: the first Allow or Deny decides; NoOpinions collect their reasons and errors. */
class UnionDecision {
  readonly #reasons: string[] = [];
  readonly #errors: string[] = [];

  add(r: AuthorizationResult): AuthorizationResult | undefined {
    if (r.error !== undefined) this.#errors.push(r.error);
    if (r.reason !== "") this.#reasons.push(r.reason);
    if (r.decision === "Allow" || r.decision === "Deny")
      return { decision: r.decision, reason: r.reason, ...(r.error !== undefined ? { error: r.error } : {}) };
    return undefined;
  }

  noOpinion(): AuthorizationResult {
    const res: AuthorizationResult = { decision: "NoOpinion", reason: this.#reasons.join("\n") };
    const errors = this.#errors;
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
