/**
 * pkg/registry/rbac/validation/policy_compact.go CompactRules and pkg/apis/rbac/v1
 * evaluation_helpers.go CompactString: the short form escalation errors list missing rules in.
 */
import type { PolicyRule } from "@servicenet/api";

/** The API group, resource and (optional) resource name simple rules merge on. */
export interface SimpleResource {
  group: string;
  resource: string;
  resourceNameExist: boolean;
  resourceName: string;
}

const none: SimpleResource = { group: "", resource: "", resourceNameExist: false, resourceName: "" };

/**
 * isSimpleResourceRule: verbs, one API group, one resource, at most one resource name and
 * nothing else.
 */
export function isSimpleResourceRule(rule: PolicyRule): { resource: SimpleResource; simple: boolean } {
  const names = rule.resourceNames ?? [];
  if (names.length > 1 || (rule.nonResourceURLs ?? []).length > 0) return { resource: none, simple: false };
  const groups = rule.apiGroups ?? [];
  const resources = rule.resources ?? [];
  if (groups.length !== 1 || resources.length !== 1) return { resource: none, simple: false };
  const resource = { group: groups[0]!, resource: resources[0]!, resourceNameExist: names.length > 0, resourceName: names[0] ?? "" };
  return { resource, simple: true };
}

/**
 * CompactRules: rules of a single API group and resource that differ only in their verbs become
 * one rule with the union of the verbs (in first-seen order); other rules stay as they are.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const { resource, simple: isSimple } = isSimpleResourceRule(rule);
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = JSON.stringify(resource);
    const existing = simple.get(key);
    if (existing === undefined) {
      simple.set(key, structuredClone(rule));
      continue;
    }
    // Merging into a rule without verbs starts its list.
    existing.verbs ??= [];
    for (const verb of rule.verbs ?? []) if (!existing.verbs.includes(verb)) existing.verbs.push(verb);
  }
  return [...compacted, ...simple.values()];
}

/** Go's %q of a []string: `["a" "b"]`. */
export function goQuotedStrings(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(" ")}]`;
}

/** CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`, empty fields left out. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, v: readonly string[] | undefined) => {
    if ((v ?? []).length > 0) parts.push(`${label}:${goQuotedStrings(v!)}`);
  };
  add("APIGroups", r.apiGroups);
  add("Resources", r.resources);
  add("NonResourceURLs", r.nonResourceURLs);
  add("ResourceNames", r.resourceNames);
  add("Verbs", r.verbs);
  return `{${parts.join(", ")}}`;
}
