/**
 * pkg/registry/rbac/validation/policy_comparator.go: whether one set of rules (the owner's)
 * allows everything another set (the servant's) allows. Each servant rule is broken down to
 * single group/resource/verb/name tuples, each of which one owner rule covers or not.
 */
import { apiGroupAll, resourceAll, verbAll, type PolicyRule } from "@servicenet/api";

/**
 * Covers: whether ownerRules cover servantRules, and the broken-down servant rules they do not
 * cover.
 */
export function covers(
  ownerRules: readonly PolicyRule[],
  servantRules: readonly PolicyRule[],
): { covered: boolean; uncovered: PolicyRule[] } {
  const subrules = servantRules.flatMap(breakdownRule);
  const uncovered = subrules.filter((sub) => !ownerRules.some((owner) => ruleCovers(owner, sub)));
  return { covered: uncovered.length === 0, uncovered };
}

/** BreakdownRule: an equivalent list of rules with at most one verb, resource and resource name each. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const subrules: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if ((rule.resourceNames ?? []).length > 0) {
          for (const resourceName of rule.resourceNames ?? [])
            subrules.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [resourceName] });
        } else {
          subrules.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  // Non-resource URLs only combine with verbs.
  for (const url of rule.nonResourceURLs ?? [])
    for (const verb of rule.verbs ?? []) subrules.push({ nonResourceURLs: [url], verbs: [verb] });
  return subrules;
}

const has = (set: readonly string[] | undefined, ele: string): boolean => (set ?? []).includes(ele);

function hasAll(set: readonly string[] | undefined, contains: readonly string[] | undefined): boolean {
  const owning = new Set(set ?? []);
  return (contains ?? []).every((e) => owning.has(e));
}

function resourceCoversAll(setResources: readonly string[] | undefined, coversResources: readonly string[] | undefined): boolean {
  // A star or an exact match on all resources matches.
  if (has(setResources, resourceAll) || hasAll(setResources, coversResources)) return true;
  for (const path of coversResources ?? []) {
    if (has(setResources, path)) continue;
    // Not a subresource: no match.
    if (!path.includes("/")) return false;
    const sub = path.slice(path.indexOf("/") + 1);
    if (!has(setResources, `*/${sub}`)) return false;
  }
  return true;
}

function nonResourceURLsCoversAll(set: readonly string[] | undefined, coversURLs: readonly string[] | undefined): boolean {
  return (coversURLs ?? []).every((path) => (set ?? []).some((owner) => nonResourceURLCovers(owner, path)));
}

/** nonResourceURLCovers: an exact match, or an owner path ending in `*` whose prefix starts the path. */
export function nonResourceURLCovers(ownerPath: string, subPath: string): boolean {
  if (ownerPath === subPath) return true;
  return ownerPath.endsWith("*") && subPath.startsWith(ownerPath.replace(/\*+$/, ""));
}

/**
 * ruleCovers: whether ownerRule (any number of verbs, resources and names) covers subRule (at
 * most one of each).
 */
export function ruleCovers(ownerRule: PolicyRule, subRule: PolicyRule): boolean {
  const verbMatches = has(ownerRule.verbs, verbAll) || hasAll(ownerRule.verbs, subRule.verbs);
  const groupMatches = has(ownerRule.apiGroups, apiGroupAll) || hasAll(ownerRule.apiGroups, subRule.apiGroups);
  const resourceMatches = resourceCoversAll(ownerRule.resources, subRule.resources);
  const nonResourceURLMatches = nonResourceURLsCoversAll(ownerRule.nonResourceURLs, subRule.nonResourceURLs);
  const ownerNames = ownerRule.resourceNames ?? [];
  const resourceNameMatches =
    (subRule.resourceNames ?? []).length === 0
      ? ownerNames.length === 0
      : ownerNames.length === 0 || hasAll(ownerNames, subRule.resourceNames);
  return verbMatches && groupMatches && resourceMatches && resourceNameMatches && nonResourceURLMatches;
}
