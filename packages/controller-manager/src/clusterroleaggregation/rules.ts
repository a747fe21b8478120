/**
 * The rule arithmetic of pkg/controller/clusterroleaggregation: equality.Semantic.DeepEqual on
 * PolicyRules (a nil and an empty list are equal), ruleExists, and the apply configuration
 * applyClusterRoles sends (client-go applyconfigurations/rbac/v1, whose fields are omitempty).
 */
import { rbacGroupName, type ClusterRole, type PolicyRule } from "@servicenet/api";

/** The field manager of applyClusterRoles. */
export const aggregationFieldManager = "clusterrole-aggregation-controller";

const listFields = ["verbs", "apiGroups", "resources", "resourceNames", "nonResourceURLs"] as const;

function listsEqual(a: readonly string[] | null | undefined, b: readonly string[] | null | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** equality.Semantic.DeepEqual of two PolicyRules. */
export function rulesEqual(a: PolicyRule, b: PolicyRule): boolean {
  return listFields.every((f) => listsEqual(a[f], b[f]));
}

/** equality.Semantic.DeepEqual of two rule lists (nil equals empty). */
export function ruleListsEqual(a: readonly PolicyRule[] | null | undefined, b: readonly PolicyRule[] | null | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((r, i) => rulesEqual(r, y[i]!));
}

/** ruleExists: `needle` is semantically equal to a rule of `haystack`. */
export function ruleExists(haystack: readonly PolicyRule[], needle: PolicyRule): boolean {
  return haystack.some((r) => rulesEqual(r, needle));
}

/** A ClusterRole apply configuration (rbacv1ac.ClusterRole(name).WithRules(...)). */
export interface ClusterRoleApplyConfiguration {
  kind: "ClusterRole";
  apiVersion: string;
  metadata: { name: string };
  rules?: PolicyRule[];
}

/** toApplyPolicyRule: the rule's lists, each left out when empty (omitempty). */
function toApplyPolicyRule(rule: PolicyRule): PolicyRule {
  const out: Record<string, string[]> = {};
  for (const f of listFields) if ((rule[f] ?? []).length > 0) out[f] = [...rule[f]!];
  return out as unknown as PolicyRule;
}

/** applyClusterRoles' configuration: name and rules only; no rules leaves `rules` out (WithRules() of nothing). */
export function clusterRoleApply(name: string, rules: readonly PolicyRule[]): ClusterRoleApplyConfiguration {
  const ac: ClusterRoleApplyConfiguration = { kind: "ClusterRole", apiVersion: `${rbacGroupName}/v1`, metadata: { name } };
  if (rules.length > 0) ac.rules = rules.map(toApplyPolicyRule);
  return ac;
}

/** updateClusterRoles' object: a copy of the role with its rules replaced (nil when there are none, as Go marshals it). */
export function clusterRoleUpdate(role: ClusterRole, rules: readonly PolicyRule[]): ClusterRole {
  return { ...role, rules: rules.length > 0 ? rules.map((r) => structuredClone(r)) : null };
}
