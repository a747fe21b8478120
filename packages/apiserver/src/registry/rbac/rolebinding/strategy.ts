/**
 * RoleBinding REST strategy (pkg/registry/rbac/rolebinding/strategy.go): namespaced, create on
 * update and unconditional update allowed, no status; roleRef is immutable. Defaulting is
 * pkg/apis/rbac/v1/defaults.go SetDefaults_RoleBinding and SetDefaults_Subject.
 */
import { setDefaultsRoleBinding, validateRoleBinding, validateRoleBindingUpdate } from "@servicenet/api";
import type { RESTStrategy } from "../../generic/strategy.ts";

export const roleBindingStrategy: RESTStrategy = {
  group: "rbac.authorization.k8s.io",
  kind: "RoleBinding",
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  defaults: (o) => setDefaultsRoleBinding(o as Parameters<typeof setDefaultsRoleBinding>[0]),
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: (o) => validateRoleBinding(o),
  validateUpdate: (o, old) => [...validateRoleBinding(o), ...validateRoleBindingUpdate(o, old)],
};
