/**
 * ClusterRoleBinding REST strategy (pkg/registry/rbac/clusterrolebinding/strategy.go):
 * cluster-scoped, create on update and unconditional update allowed, no status; roleRef is
 * immutable. Defaulting is pkg/apis/rbac/v1/defaults.go SetDefaults_ClusterRoleBinding.
 */
import { setDefaultsRoleBinding, validateClusterRoleBinding, validateClusterRoleBindingUpdate } from "@servicenet/api";
import type { RESTStrategy } from "../../generic/strategy.ts";

export const clusterRoleBindingStrategy: RESTStrategy = {
  group: "rbac.authorization.k8s.io",
  kind: "ClusterRoleBinding",
  namespaced: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  defaults: (o) => setDefaultsRoleBinding(o as Parameters<typeof setDefaultsRoleBinding>[0]),
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: (o) => validateClusterRoleBinding(o),
  validateUpdate: (o, old) => [...validateClusterRoleBinding(o), ...validateClusterRoleBindingUpdate(o, old)],
};
