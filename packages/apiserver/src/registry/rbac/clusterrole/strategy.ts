/**
 * ClusterRole REST strategy (pkg/registry/rbac/clusterrole/strategy.go): cluster-scoped, create on
 * update and unconditional update allowed, no status. An update may keep invalid label values in
 * aggregation selectors when the stored role already had them (hasInvalidLabelValueInLabelSelector).
 */
import { validateClusterRole, validateClusterRoleUpdate, validateLabelSelector, type RoleShape } from "@servicenet/api";
import type { RESTStrategy } from "../../generic/strategy.ts";

/** hasInvalidLabelValueInLabelSelector: some aggregation selector fails strict validation. */
export function hasInvalidLabelValueInLabelSelector(role: RoleShape): boolean {
  return (role.aggregationRule?.clusterRoleSelectors ?? []).some((s) => validateLabelSelector(s, {}, "").length > 0);
}

export const clusterRoleStrategy: RESTStrategy = {
  group: "rbac.authorization.k8s.io",
  kind: "ClusterRole",
  namespaced: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: (o) => validateClusterRole(o, { allowInvalidLabelValueInSelector: false }),
  validateUpdate: (o, old) => {
    const opts = { allowInvalidLabelValueInSelector: hasInvalidLabelValueInLabelSelector(old) };
    return [...validateClusterRole(o, opts), ...validateClusterRoleUpdate(o, old, opts)];
  },
};
