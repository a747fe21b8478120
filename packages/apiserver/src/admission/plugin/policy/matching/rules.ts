/**
 * Whether a rule covers a request (k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules.go
 * Matcher): operations, API groups and versions, resources with their subresources, and scope.
 */
import type { NamedRuleWithOperations } from "@servicenet/api/admissionregistration/v1";
import type { Attributes } from "../../../attributes.ts";

const all = "*";

function exactOrWildcard(items: readonly string[] | undefined, requested: string): boolean {
  return (items ?? []).some((i) => i === all || i === requested);
}

/** rules.go resource(): each rule entry is "res[/sub]"; a star in either part matches anything. */
function resourceMatches(rule: NamedRuleWithOperations, a: Attributes): boolean {
  return (rule.resources ?? []).some((r) => {
    const slash = r.indexOf("/");
    const [res, sub] = slash === -1 ? [r, ""] : [r.slice(0, slash), r.slice(slash + 1)];
    return (res === all || res === a.resource.resource) && (sub === all || sub === a.subresource);
  });
}

const isNamespaceObject = (a: Attributes): boolean =>
  a.resource.group === "" && a.resource.version === "v1" && a.resource.resource === "namespaces";

/** rules.go scope(): a Namespace itself is cluster-scoped although its namespace attribute is set. */
function scopeMatches(rule: NamedRuleWithOperations, a: Attributes): boolean {
  switch (rule.scope ?? all) {
    case "Namespaced":
      return !isNamespaceObject(a) && a.namespace !== "";
    case "Cluster":
      return isNamespaceObject(a) || a.namespace === "";
    default:
      return true;
  }
}

/** True if `rule` covers the request (rules.go Matcher.Matches). */
export function ruleMatches(rule: NamedRuleWithOperations, a: Attributes): boolean {
  return (
    scopeMatches(rule, a) &&
    exactOrWildcard(rule.operations, a.operation) &&
    exactOrWildcard(rule.apiGroups, a.resource.group) &&
    exactOrWildcard(rule.apiVersions, a.resource.version) &&
    resourceMatches(rule, a)
  );
}

/** A NamedRuleWithOperations also limits the names it covers (policy/matching/matching.go). */
export function namedRuleMatches(rule: NamedRuleWithOperations, a: Attributes): boolean {
  const names = rule.resourceNames ?? [];
  if (names.length > 0 && !names.includes(a.name)) return false;
  return ruleMatches(rule, a);
}
