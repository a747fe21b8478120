/** RoleBinding REST strategy (pkg/registry/rbac/rolebinding/strategy.go): no status, validation.ValidateRoleBinding. */
import { isValidPathSegmentName, validateObjectMeta, validateObjectMetaUpdate } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

export const roleBindingStrategy: RESTStrategy = {
  group: "rbac.authorization.k8s.io",
  kind: "RoleBinding",
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: (o: KubeObject) => validateObjectMeta(o.metadata, { namespaced: true, nameValidator: isValidPathSegmentName }),
  validateUpdate: (o: KubeObject, old: KubeObject) => [
    ...validateObjectMeta(o.metadata, { namespaced: true, nameValidator: isValidPathSegmentName }),
    ...validateObjectMetaUpdate(o.metadata, old.metadata),
  ],
};
