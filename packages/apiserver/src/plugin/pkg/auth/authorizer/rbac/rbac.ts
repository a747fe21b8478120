/**
 * plugin/pkg/auth/authorizer/rbac/rbac.go: the RBAC authorizer. It allows a request when one rule
 * the user holds (through a ClusterRoleBinding, or a RoleBinding in the request's namespace)
 * matches it, and has no opinion otherwise: RBAC never denies. The matchers are
 * pkg/apis/rbac/v1/evaluation_helpers.go's.
 */
import type { PolicyRule } from "@servicenet/api";
import { apiGroupAll, nonResourceAll, resourceAll, verbAll } from "@servicenet/api/rbac/v1";
import type { UserInfo } from "../../../../../authentication/user/user.ts";
import type {
  Attributes,
  AuthorizationResult,
  Authorizer,
  NonResourceRuleInfo,
  ResourceRuleInfo,
  RuleResolver,
  RulesResult,
} from "../../../../../authorization/authorizer/interfaces.ts";
import { aggregateErrors, type DefaultRuleResolver } from "../../../../../registry/rbac/validation/rule.ts";

/** RequestToRuleMapper: what the authorizer needs of a rule resolver. */
export type RequestToRuleMapper = Pick<DefaultRuleResolver, "visitRulesFor" | "rulesForSync">;

/** RBACAuthorizer. */
export class RBACAuthorizer implements Authorizer, RuleResolver {
  readonly #resolver: RequestToRuleMapper;

  constructor(authorizationRuleResolver: RequestToRuleMapper) {
    this.#resolver = authorizationRuleResolver;
  }

  /** Authorize: Allow with `RBAC: allowed by <source>`, else NoOpinion with the resolution errors as the reason. */
  authorize(a: Attributes): AuthorizationResult {
    let reason = "";
    const errors: Error[] = [];
    let allowed = false;
    const user = a.user ?? { name: "", uid: "", groups: [] };
    this.#resolver.visitRulesFor(user, a.namespace, (source, rule, err) => {
      if (rule && ruleAllows(a, rule)) {
        allowed = true;
        reason = `RBAC: allowed by ${String(source)}`;
        return false;
      }
      if (err) errors.push(err);
      return true;
    });
    if (allowed) return { decision: "Allow", reason };
    return { decision: "NoOpinion", reason: errors.length > 0 ? `RBAC: ${aggregateErrors(errors)}` : "" };
  }

  /** RulesFor: the user's rules split into resource and non-resource rules (never incomplete; errors reported). */
  rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const { rules, errors } = this.#resolver.rulesForSync(user, namespace);
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    for (const r of rules) {
      if ((r.resources ?? []).length > 0) {
        resourceRules.push({
          verbs: r.verbs,
          apiGroups: r.apiGroups ?? [],
          resources: r.resources ?? [],
          resourceNames: r.resourceNames ?? [],
        });
      }
      if ((r.nonResourceURLs ?? []).length > 0) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs ?? [] });
    }
    return Promise.resolve({
      resourceRules,
      nonResourceRules,
      incomplete: false,
      ...(errors.length > 0 ? { error: aggregateErrors(errors) } : {}),
    });
  }
}

/** RulesAllow: whether any of the rules allows the request. */
export function rulesAllow(a: Attributes, ...rules: PolicyRule[]): boolean {
  return rules.some((r) => ruleAllows(a, r));
}

/** RuleAllows: resource requests match verb, group, `resource[/subresource]` and name; others verb and path. */
export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  if (a.resourceRequest) {
    const combined = a.subresource !== "" ? `${a.resource}/${a.subresource}` : a.resource;
    return (
      verbMatches(rule, a.verb) &&
      apiGroupMatches(rule, a.apiGroup) &&
      resourceMatches(rule, combined, a.subresource) &&
      resourceNameMatches(rule, a.name)
    );
  }
  return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
}

export function verbMatches(rule: PolicyRule, requestedVerb: string): boolean {
  return rule.verbs.some((v) => v === verbAll || v === requestedVerb);
}

export function apiGroupMatches(rule: PolicyRule, requestedGroup: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === apiGroupAll || g === requestedGroup);
}

/** ResourceMatches: `*`, the exact `resource[/subresource]`, or `*\/<subresource>`. */
export function resourceMatches(rule: PolicyRule, combinedRequestedResource: string, requestedSubresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === resourceAll || r === combinedRequestedResource) return true;
    if (requestedSubresource === "") continue;
    if (r.length === requestedSubresource.length + 2 && r.startsWith("*/") && r.endsWith(requestedSubresource)) return true;
  }
  return false;
}

/** ResourceNameMatches: no names in the rule means every name. */
export function resourceNameMatches(rule: PolicyRule, requestedName: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(requestedName);
}

/** NonResourceURLMatches: `*`, the exact path, or a prefix ending in `*`. */
export function nonResourceURLMatches(rule: PolicyRule, requestedURL: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === nonResourceAll || u === requestedURL) return true;
    if (u.endsWith("*") && requestedURL.startsWith(u.replace(/\*+$/, ""))) return true;
  }
  return false;
}
