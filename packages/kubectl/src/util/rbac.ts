/**
 * kubectl pkg/util/rbac: BreakdownRule, CompactRules and SortableRuleSlice, which describe role
 * and describe clusterrole print their PolicyRule table with.
 */
import type { PolicyRule } from "@servicenet/api";
import { compareGo } from "@servicenet/printers";

/**
 * BreakdownRule: one rule per apiGroup x resource x verb (x resourceName), then one per
 * nonResourceURL x verb. A rule without apiGroups or resources yields no resource rules.
 */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const verbs = rule.verbs ?? [];
  for (const group of rule.apiGroups ?? [])
    for (const resource of rule.resources ?? [])
      for (const verb of verbs) {
        const names = rule.resourceNames ?? [];
        if (names.length > 0)
          for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

/**
 * isSimpleResourceRule's key: a rule with one apiGroup, one resource, at most one resourceName and
 * no nonResourceURLs (upstream also requires no other field, which a PolicyRule here cannot have).
 */
function simpleKey(rule: PolicyRule): string | undefined {
  const names = rule.resourceNames ?? [];
  if (names.length > 1 || (rule.nonResourceURLs ?? []).length > 0) return undefined;
  if ((rule.apiGroups ?? []).length !== 1 || (rule.resources ?? []).length !== 1) return undefined;
  return JSON.stringify([rule.apiGroups![0], rule.resources![0], names.length > 0, names[0] ?? ""]);
}

/**
 * CompactRules: simple resource rules that differ only by verb become one rule with the verbs
 * in order, each once; the others are kept as they are, before them. (Upstream appends the merged rules in
 * Go map order; describe sorts the result, so their order does not show.)
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const key = simpleKey(rule);
    if (key === undefined) {
      compacted.push(rule);
      continue;
    }
    const existing = simple.get(key);
    if (existing !== undefined) {
      // Only verbs the merged rule does not have yet are added.
      const had = new Set(existing.verbs ?? []);
      existing.verbs = [...(existing.verbs ?? []), ...(rule.verbs ?? []).filter((v) => !had.has(v))];
    } else simple.set(key, structuredClone(rule));
  }
  return [...compacted, ...simple.values()];
}

/** fmt's %v of a []string: "[a b c]", "[]" for nil or empty. */
export function goStringSlice(values: readonly string[] | null | undefined): string {
  return `[${(values ?? []).join(" ")}]`;
}

/** rbacv1.PolicyRule's generated String(), the key SortableRuleSlice compares. */
export function policyRuleString(r: PolicyRule): string {
  return (
    `&PolicyRule{Verbs:${goStringSlice(r.verbs)},APIGroups:${goStringSlice(r.apiGroups)},Resources:${goStringSlice(r.resources)},` +
    `ResourceNames:${goStringSlice(r.resourceNames)},NonResourceURLs:${goStringSlice(r.nonResourceURLs)},}`
  );
}

/** sort.Stable(SortableRuleSlice(rules)): by String(), bytewise; a new array. */
export function sortRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const keyed = rules.map((r) => ({ r, k: policyRuleString(r) }));
  keyed.sort((a, b) => compareGo(a.k, b.k));
  return keyed.map((x) => x.r);
}
