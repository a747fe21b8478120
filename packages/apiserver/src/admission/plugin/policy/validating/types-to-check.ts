/**
 * The kinds a policy's expressions are type-checked against
 * (k8s.io/apiserver/pkg/admission/plugin/policy/validating/typechecking.go typesToCheck): every
 * kind its matchConstraints' resource rules name exactly (no wildcard group, version or resource,
 * no subresource), at most ten, sorted by group, version and kind.
 */
import type { NamedRuleWithOperations, ValidatingAdmissionPolicy } from "@servicenet/api/admissionregistration/v1";
import type { GroupVersionKind } from "../../../../apiserver/cel/openapi/resolver/resolver.ts";

/** upstream maxTypesToCheck. */
export const maxTypesToCheck = 10;

/** The kinds served at a group, version and resource (RESTMapper.KindsFor); none when unknown. */
export type KindsFor = (gvr: { group: string; version: string; resource: string }) => readonly GroupVersionKind[];

// extractGroups and extractVersions give up on a wildcard; extractResources skips wildcards and subresources.
const exact = (items: readonly string[] | undefined): string[] => ((items ?? []).some((i) => i.includes("*")) ? [] : [...(items ?? [])]);
const resourcesOf = (rule: NamedRuleWithOperations): string[] => (rule.resources ?? []).filter((r) => !/[*/]/.test(r));

const gvkKey = (g: GroupVersionKind): string => `${g.group}/${g.version}/${g.kind}`;
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** sortGVKList: by group, then version, then kind. */
export function sortGVKList(list: GroupVersionKind[]): GroupVersionKind[] {
  return list.sort((a, b) => compare(a.group, b.group) || compare(a.version, b.version) || compare(a.kind, b.kind));
}

/** typesToCheck: the kinds to check `policy` against, in order; empty when there is none. */
export function typesToCheck(policy: ValidatingAdmissionPolicy, kindsFor: KindsFor): GroupVersionKind[] {
  const found = new Map<string, GroupVersionKind>();
  let count = 0;
  for (const rule of policy.spec.matchConstraints?.resourceRules ?? []) {
    const groups = exact(rule.apiGroups).sort();
    const versions = exact(rule.apiVersions).sort();
    const resources = resourcesOf(rule).sort();
    for (const group of groups)
      for (const version of versions)
        for (const resource of resources)
          for (const gvk of kindsFor({ group, version, resource })) {
            found.set(gvkKey(gvk), gvk);
            if (++count === maxTypesToCheck) return sortGVKList([...found.values()]);
          }
  }
  return sortGVKList([...found.values()]);
}
