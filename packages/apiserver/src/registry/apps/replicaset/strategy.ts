/** apps/v1 ReplicaSet REST strategy (pkg/registry/apps/replicaset/strategy.go). */
import {
  setDefaultsReplicaSet,
  validateImmutableField,
  validateReplicaSet,
  validateReplicaSetStatusUpdate,
  validateReplicaSetUpdate,
  type ReplicaSet,
} from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import { bumpGeneration, type RESTStrategy } from "../../generic/strategy.ts";
import { dropStatusOnCreate, keepSpecAndLabels, keepStatusOf } from "../status.ts";

const asReplicaSet = (o: KubeObject): ReplicaSet => o as unknown as ReplicaSet;

export const replicaSetStrategy: RESTStrategy = {
  group: "apps",
  kind: "ReplicaSet",
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaults: (o) => {
    setDefaultsReplicaSet(asReplicaSet(o));
  },
  prepareForCreate: dropStatusOnCreate(() => ({ replicas: 0 })),
  // PrepareForUpdate: status kept; only a spec change bumps the generation.
  prepareForUpdate: (o, old) => {
    keepStatusOf(o, old);
    bumpGeneration(o, old);
  },
  validate: (o) => validateReplicaSet(asReplicaSet(o)),
  validateUpdate: (o, old) => [
    ...validateReplicaSetUpdate(asReplicaSet(o), asReplicaSet(old)),
    ...validateImmutableField(asReplicaSet(o).spec.selector, asReplicaSet(old).spec.selector, "spec.selector"),
  ],
  subresources: {
    status: {
      prepareForUpdate: keepSpecAndLabels,
      validateUpdate: (o, old) => validateReplicaSetStatusUpdate(asReplicaSet(o), asReplicaSet(old)),
    },
  },
};
