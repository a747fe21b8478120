/**
 * The audit policy evaluator (staging/src/k8s.io/apiserver/pkg/audit/policy/checker.go
 * NewPolicyRuleEvaluator, EvaluatePolicyRule, ruleMatches): the first rule matching a request's
 * authorizer attributes gives its level, the stages to omit (the rule's and the policy's) and
 * whether managedFields are left out; no match is level None.
 */
import type { AuditLevel, AuditStage, Policy, PolicyRule } from "../../apis/audit/v1/types.ts";
import type { Attributes } from "../../authorization/authorizer/interfaces.ts";

/** What the policy says of one request (audit.RequestAuditConfig). */
export interface RequestAuditConfig {
  level: AuditLevel;
  omitStages: AuditStage[];
  omitManagedFields: boolean;
}

/** policy.PolicyRuleEvaluator. */
export interface PolicyRuleEvaluator {
  evaluatePolicyRule(attrs: Attributes): RequestAuditConfig;
}

/** The evaluator of a policy that passed validatePolicy (its levels and stages are known values). */
export function newPolicyRuleEvaluator(policy: Policy): PolicyRuleEvaluator {
  const policyStages = (policy.omitStages ?? []) as AuditStage[];
  const rules = (policy.rules ?? []).map((rule) => ({
    rule,
    omitStages: unionStages(policyStages, (rule.omitStages ?? []) as AuditStage[]),
  }));
  return {
    evaluatePolicyRule(attrs) {
      for (const { rule, omitStages } of rules) {
        if (ruleMatches(rule, attrs))
          return {
            level: rule.level as AuditLevel,
            omitStages,
            omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false,
          };
      }
      return { level: "None", omitStages: [...policyStages], omitManagedFields: policy.omitManagedFields ?? false };
    },
  };
}

/** The stages of all lists, each once. */
export function unionStages(...lists: ReadonlyArray<readonly AuditStage[] | undefined>): AuditStage[] {
  return [...new Set(lists.flatMap((l) => l ?? []))];
}

const has = (list: readonly string[] | undefined, value: string): boolean => (list ?? []).includes(value);
const nonEmpty = (list: readonly unknown[] | undefined): boolean => (list ?? []).length > 0;

function ruleMatches(r: PolicyRule, attrs: Attributes): boolean {
  const user = attrs.user;
  if (nonEmpty(r.users) && (user === undefined || !has(r.users, user.name))) return false;
  if (nonEmpty(r.userGroups) && (user === undefined || !user.groups.some((g) => has(r.userGroups, g)))) return false;
  if (nonEmpty(r.verbs) && !has(r.verbs, attrs.verb)) return false;
  if (nonEmpty(r.namespaces) || nonEmpty(r.resources)) return ruleMatchesResource(r, attrs);
  if (nonEmpty(r.nonResourceURLs)) return ruleMatchesNonResource(r, attrs);
  return true;
}

function ruleMatchesNonResource(r: PolicyRule, attrs: Attributes): boolean {
  if (attrs.resourceRequest) return false;
  return (r.nonResourceURLs ?? []).some((spec) => pathMatches(attrs.path, spec));
}

/** `*`, an exact path, or a prefix ending in `*`. */
function pathMatches(path: string, spec: string): boolean {
  if (spec === "*" || spec === path) return true;
  return spec.endsWith("*") && path.startsWith(spec.replace(/\*+$/, ""));
}

function ruleMatchesResource(r: PolicyRule, attrs: Attributes): boolean {
  if (!attrs.resourceRequest) return false;
  // Cluster-scoped resources have the namespace "".
  if (nonEmpty(r.namespaces) && !has(r.namespaces, attrs.namespace)) return false;
  if (!nonEmpty(r.resources)) return true;
  const { resource, subresource } = attrs;
  const combined = subresource !== "" ? `${resource}/${subresource}` : resource;
  for (const gr of r.resources ?? []) {
    if ((gr.group ?? "") !== attrs.apiGroup) continue;
    if (!nonEmpty(gr.resources)) return true;
    if (nonEmpty(gr.resourceNames) && !has(gr.resourceNames, attrs.name)) continue;
    for (const res of gr.resources ?? []) {
      if (res === combined || res === "*") return true;
      if (subresource !== "" && res.startsWith("*/") && subresource === res.slice(2)) return true;
      if (res.endsWith("/*") && resource === res.slice(0, -2)) return true;
    }
  }
  return false;
}
