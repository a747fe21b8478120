/**
 * pkg/registry/rbac/validation/policy_compact.go CompactRules and pkg/apis/rbac/v1
 * evaluation_helpers.go CompactString: the short form escalation errors list missing rules in.
 */
import type { PolicyRule } from "@servicenet/api";

/**
 * isSimpleResourceRule: verbs, one API group, one resource, at most one resource name and
 * nothing else; the key identifies the rules that may merge.
 */
function simpleResourceKey(rule: PolicyRule): string | undefined {
  const names = rule.resourceNames ?? [];
  if (names.length > 1 || (rule.nonResourceURLs ?? []).length > 0) return undefined;
  if ((rule.apiGroups ?? []).length !== 1 || (rule.resources ?? []).length !== 1) return undefined;
  return JSON.stringify([rule.apiGroups![0], rule.resources![0], names.length > 0, names[0] ?? ""]);
}

/**
 * CompactRules: rules of a single API group and resource that differ only in their verbs become
 * one rule with the union of the verbs (in first-seen order); other rules stay as they are.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const key = simpleResourceKey(rule);
    if (key === undefined) {
      compacted.push(rule);
      continue;
    }
    const existing = simple.get(key);
    if (existing === undefined) simple.set(key, structuredClone(rule));
    else for (const verb of rule.verbs) if (!existing.verbs.includes(verb)) existing.verbs.push(verb);
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
