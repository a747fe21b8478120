/** FlowSchema REST strategy (pkg/registry/flowcontrol/flowschema/strategy.go). */
import { setDefaultsFlowSchema, validateConditions, validateFlowSchema, type FlowSchema } from "@servicenet/api/flowcontrol/v1";
import { specAndStatusStrategy } from "../../generic/spec-status-strategy.ts";

export const flowSchemaStrategy = specAndStatusStrategy<FlowSchema>({
  group: "flowcontrol.apiserver.k8s.io",
  kind: "FlowSchema",
  namespaced: false,
  defaults: setDefaultsFlowSchema,
  validate: validateFlowSchema,
  validateUpdate: validateFlowSchema,
  validateStatusUpdate: (o) => validateConditions(o.status?.conditions, "status"),
});
