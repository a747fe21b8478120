/** ClusterRole REST strategy (pkg/registry/rbac/clusterrole/strategy.go): no status, validation.ValidateClusterRole. */
import { isValidPathSegmentName, validateObjectMeta, validateObjectMetaUpdate } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

export const clusterRoleStrategy: RESTStrategy = {
  group: "rbac.authorization.k8s.io",
  kind: "ClusterRole",
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
