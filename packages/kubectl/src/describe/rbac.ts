/**
 * `kubectl describe role|clusterrole|rolebinding|clusterrolebinding` (describe.go RoleDescriber,
 * ClusterRoleDescriber, RoleBindingDescriber, ClusterRoleBindingDescriber). None of them prints
 * a namespace or events.
 */
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from "@servicenet/api";
import { breakdownRule, compactRules, goStringSlice, sortRules } from "../util/rbac.ts";
import { printAnnotationsMultiline, printLabelsMultiline } from "./common.ts";
import { LEVEL_0, LEVEL_1, tabbedString } from "./prefix-writer.ts";

/**
 * CombineResourceGroup: the first resource with the first apiGroup appended before any
 * subresource ("deployments.apps/scale"); "" without resources.
 */
export function combineResourceGroup(
  resources: readonly string[] | null | undefined,
  groups: readonly string[] | null | undefined,
): string {
  const first = resources?.[0];
  if (first === undefined) return "";
  const slash = first.indexOf("/");
  let combined = slash < 0 ? first : first.slice(0, slash);
  const group = groups?.[0];
  if (group !== undefined && group !== "") combined += `.${group}`;
  if (slash >= 0) combined += `/${first.slice(slash + 1)}`;
  return combined;
}

/** The role describers' body: rules broken down, compacted and sorted, one table row each. */
function describeRules(role: Role | ClusterRole): string {
  const rules = sortRules(compactRules((role.rules ?? []).flatMap(breakdownRule)));
  const meta = role.metadata ?? {};
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${meta.name ?? ""}\n`);
    printLabelsMultiline(w, "Labels", meta.labels);
    printAnnotationsMultiline(w, "Annotations", meta.annotations);
    w.write(LEVEL_0, "PolicyRule:\n");
    w.write(LEVEL_1, "Resources\tNon-Resource URLs\tResource Names\tVerbs\n");
    w.write(LEVEL_1, "---------\t-----------------\t--------------\t-----\n");
    for (const r of rules) {
      const cells = [
        combineResourceGroup(r.resources, r.apiGroups),
        goStringSlice(r.nonResourceURLs),
        goStringSlice(r.resourceNames),
        goStringSlice(r.verbs),
      ];
      w.write(LEVEL_1, `${cells.join("\t")}\n`);
    }
  });
}

/** RoleDescriber. */
export function describeRole(role: Role): string {
  return describeRules(role);
}

/** ClusterRoleDescriber (the aggregationRule is not printed, as upstream). */
export function describeClusterRole(role: ClusterRole): string {
  return describeRules(role);
}

function describeBinding(binding: RoleBinding | ClusterRoleBinding): string {
  const meta = binding.metadata ?? {};
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${meta.name ?? ""}\n`);
    printLabelsMultiline(w, "Labels", meta.labels);
    printAnnotationsMultiline(w, "Annotations", meta.annotations);
    w.write(LEVEL_0, "Role:\n");
    w.write(LEVEL_1, `Kind:\t${binding.roleRef?.kind ?? ""}\n`);
    w.write(LEVEL_1, `Name:\t${binding.roleRef?.name ?? ""}\n`);
    w.write(LEVEL_0, "Subjects:\n");
    w.write(LEVEL_1, "Kind\tName\tNamespace\n");
    w.write(LEVEL_1, "----\t----\t---------\n");
    for (const s of binding.subjects ?? []) w.write(LEVEL_1, `${s.kind ?? ""}\t${s.name ?? ""}\t${s.namespace ?? ""}\n`);
  });
}

/** RoleBindingDescriber. */
export function describeRoleBinding(binding: RoleBinding): string {
  return describeBinding(binding);
}

/** ClusterRoleBindingDescriber. */
export function describeClusterRoleBinding(binding: ClusterRoleBinding): string {
  return describeBinding(binding);
}
