/** ClusterRoleBinding REST strategy (pkg/registry/rbac/clusterrolebinding/strategy.go): no status, validation.ValidateClusterRoleBinding. */
import { isValidPathSegmentName, validateObjectMeta, validateObjectMetaUpdate } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

export const clusterRoleBindingStrategy: RESTStrategy = {
  group: "rbac.authorization.k8s.io",
  kind: "ClusterRoleBinding",
  namespaced: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: (o: KubeObject) => validateObjectMeta(o.metadata, { namespaced: false, nameValidator: isValidPathSegmentName }),
  validateUpdate: (o: KubeObject, old: KubeObject) => [
    ...validateObjectMeta(o.metadata, { namespaced: false, nameValidator: isValidPathSegmentName }),
    ...validateObjectMetaUpdate(o.metadata, old.metadata),
  ],
};
