/**
 * staging/src/k8s.io/apiserver/pkg/authorization/authorizerfactory/builtin.go: AlwaysAllow,
 * AlwaysDeny and the privileged-group authorizer (`system:masters` is allowed everything before
 * RBAC is asked).
 */
import type { UserInfo } from "../../authentication/user/user.ts";
import type { Attributes, AuthorizationResult, Authorizer, RuleResolver, RulesResult } from "../authorizer/interfaces.ts";

/** NewAlwaysAllowAuthorizer: every request is allowed; RulesFor lists `*` everything. */
export class AlwaysAllowAuthorizer implements Authorizer, RuleResolver {
  authorize(): AuthorizationResult {
    return { decision: "Allow", reason: "" };
  }

  rulesFor(): Promise<RulesResult> {
    return Promise.resolve({
      resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], resourceNames: [] }],
      nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
      incomplete: false,
    });
  }
}

/** NewAlwaysDenyAuthorizer: no opinion on anything (so, alone, everything is forbidden); RulesFor lists nothing. */
export class AlwaysDenyAuthorizer implements Authorizer, RuleResolver {
  authorize(): AuthorizationResult {
    return { decision: "NoOpinion", reason: "Everything is forbidden." };
  }

  rulesFor(): Promise<RulesResult> {
    return Promise.resolve({ resourceRules: [], nonResourceRules: [], incomplete: false });
  }
}

/** NewPrivilegedGroups: members of any of the groups are allowed; others get no opinion. */
export class PrivilegedGroupAuthorizer implements Authorizer {
  readonly #groups: ReadonlySet<string>;

  constructor(...groups: string[]) {
    this.#groups = new Set(groups);
  }

  authorize(a: Attributes): AuthorizationResult {
    const user: UserInfo | undefined = a.user;
    if (user === undefined) return { decision: "NoOpinion", reason: "Error", error: "no user on request." };
    for (const g of user.groups) if (this.#groups.has(g)) return { decision: "Allow", reason: "" };
    return { decision: "NoOpinion", reason: "" };
  }
}
