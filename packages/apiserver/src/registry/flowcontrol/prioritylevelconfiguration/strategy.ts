/** PriorityLevelConfiguration REST strategy (pkg/registry/flowcontrol/prioritylevelconfiguration/strategy.go). */
import {
  setDefaultsPriorityLevelConfiguration,
  validateConditions,
  validatePriorityLevelConfiguration,
  type PriorityLevelConfiguration,
} from "@servicenet/api/flowcontrol/v1";
import type { KubeObject } from "../../../storage/index.ts";
import { bumpGeneration, keepStatus, resetForStatus, type RESTStrategy } from "../../generic/strategy.ts";

const asPL = (o: KubeObject): PriorityLevelConfiguration => o;

export const priorityLevelConfigurationStrategy: RESTStrategy = {
  group: "flowcontrol.apiserver.k8s.io",
  kind: "PriorityLevelConfiguration",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaults: (o) => setDefaultsPriorityLevelConfiguration(asPL(o)),
  prepareForCreate: (o) => {
    o["status"] = {};
    o.metadata.generation = 1;
  },
  prepareForUpdate: (o, old) => {
    keepStatus(o, old);
    bumpGeneration(o, old);
  },
  validate: (o) => validatePriorityLevelConfiguration(asPL(o)),
  validateUpdate: (o) => validatePriorityLevelConfiguration(asPL(o)),
  subresources: {
    status: { prepareForUpdate: resetForStatus, validateUpdate: (o) => validateConditions(asPL(o).status?.conditions, "status") },
  },
};
