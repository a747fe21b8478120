/** PriorityClass REST strategy (pkg/registry/scheduling/priorityclass/strategy.go). */
import {
  setDefaultsPriorityClass,
  validatePriorityClass,
  validatePriorityClassUpdate,
  type PriorityClass,
} from "@servicenet/api/scheduling/v1";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

const pc = (o: KubeObject): PriorityClass => o as unknown as PriorityClass;

/** Cluster-scoped; PUT needs an existing object but no resourceVersion, as upstream's strategy. */
export const priorityClassStrategy: RESTStrategy = {
  group: "scheduling.k8s.io",
  kind: "PriorityClass",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaults: (o) => setDefaultsPriorityClass(pc(o)),
  prepareForCreate: (o) => {
    o.metadata.generation = 1;
  },
  prepareForUpdate: () => {},
  validate: (o) => validatePriorityClass(pc(o)),
  validateUpdate: (o, old) => validatePriorityClassUpdate(pc(o), pc(old)),
};
