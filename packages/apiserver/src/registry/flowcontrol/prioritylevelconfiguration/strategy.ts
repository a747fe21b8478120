/** PriorityLevelConfiguration REST strategy (pkg/registry/flowcontrol/prioritylevelconfiguration/strategy.go). */
import {
  setDefaultsPriorityLevelConfiguration,
  validateConditions,
  validatePriorityLevelConfiguration,
  type PriorityLevelConfiguration,
} from "@servicenet/api/flowcontrol/v1";
import { specAndStatusStrategy } from "../../generic/spec-status-strategy.ts";

export const priorityLevelConfigurationStrategy = specAndStatusStrategy<PriorityLevelConfiguration>({
  group: "flowcontrol.apiserver.k8s.io",
  kind: "PriorityLevelConfiguration",
  namespaced: false,
  defaults: setDefaultsPriorityLevelConfiguration,
  validate: validatePriorityLevelConfiguration,
  validateUpdate: validatePriorityLevelConfiguration,
  validateStatusUpdate: (o) => validateConditions(o.status?.conditions, "status"),
});
