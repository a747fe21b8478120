/** apps/v1 ReplicaSet REST strategy (pkg/registry/apps/replicaset/strategy.go). */
import {
  setDefaultsReplicaSet,
  validateImmutableField,
  validateReplicaSet,
  validateReplicaSetStatusUpdate,
  validateReplicaSetUpdate,
  type ReplicaSet,
} from "@servicenet/api";
import { specAndStatusStrategy } from "../../generic/spec-status-strategy.ts";
import { keepSpecAndLabels } from "../status.ts";

export const replicaSetStrategy = specAndStatusStrategy<ReplicaSet>({
  group: "apps",
  kind: "ReplicaSet",
  namespaced: true,
  defaults: (o) => {
    setDefaultsReplicaSet(o);
  },
  // The zero ReplicaSetStatus still serializes `replicas` (not omitempty).
  zeroStatus: () => ({ replicas: 0 }),
  validate: validateReplicaSet,
  validateUpdate: (o, old) => [
    ...validateReplicaSetUpdate(o, old),
    ...validateImmutableField(o.spec.selector, old.spec.selector, "spec.selector"),
  ],
  prepareForStatusUpdate: keepSpecAndLabels,
  validateStatusUpdate: validateReplicaSetStatusUpdate,
});
