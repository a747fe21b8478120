/**
 * Role REST strategy (pkg/registry/rbac/role/strategy.go): namespaced, create on update and
 * unconditional update allowed, no status. ValidateUpdate is ValidateRole followed by
 * ValidateRoleUpdate (which validates the role again), as upstream.
 */
import { validateRole, validateRoleUpdate } from "@servicenet/api";
import type { RESTStrategy } from "../../generic/strategy.ts";

export const roleStrategy: RESTStrategy = {
  group: "rbac.authorization.k8s.io",
  kind: "Role",
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: (o) => validateRole(o),
  validateUpdate: (o, old) => [...validateRole(o), ...validateRoleUpdate(o, old)],
};
