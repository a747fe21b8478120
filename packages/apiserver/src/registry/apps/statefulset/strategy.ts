/** apps/v1 StatefulSet REST strategy (pkg/registry/apps/statefulset/strategy.go). */
import {
  setDefaultsStatefulSet,
  validateStatefulSet,
  validateStatefulSetStatusUpdate,
  validateStatefulSetUpdate,
  type StatefulSet,
} from "@servicenet/api";
import { specAndStatusStrategy } from "../../generic/spec-status-strategy.ts";
import { keepSpec } from "../status.ts";

/**
 * Status reset on create, generation 1 and bumped by a spec change; ValidateUpdate allows only the
 * mutable spec fields (the selector is among the immutable ones); the status subresource keeps the
 * stored spec (statefulSetStatusStrategy.PrepareForUpdate).
 */
export const statefulSetStrategy = specAndStatusStrategy<StatefulSet>({
  group: "apps",
  kind: "StatefulSet",
  namespaced: true,
  defaults: (o) => {
    setDefaultsStatefulSet(o);
  },
  // The zero StatefulSetStatus still serializes `replicas` and `availableReplicas` (not omitempty).
  zeroStatus: () => ({ replicas: 0, availableReplicas: 0 }),
  validate: validateStatefulSet,
  validateUpdate: validateStatefulSetUpdate,
  prepareForStatusUpdate: keepSpec,
  validateStatusUpdate: validateStatefulSetStatusUpdate,
});
