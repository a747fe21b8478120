/** Role REST strategy (pkg/registry/rbac/role/strategy.go): no status, validation.ValidateRole. */
import { isValidPathSegmentName, validateObjectMeta, validateObjectMetaUpdate } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

export const roleStrategy: RESTStrategy = {
  group: "rbac.authorization.k8s.io",
  kind: "Role",
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
