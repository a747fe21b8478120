/** FlowSchema REST strategy (pkg/registry/flowcontrol/flowschema/strategy.go). */
import { setDefaultsFlowSchema, validateConditions, validateFlowSchema, type FlowSchema } from "@servicenet/api/flowcontrol/v1";
import type { KubeObject } from "../../../storage/index.ts";
import { bumpGeneration, keepStatus, resetForStatus, type RESTStrategy } from "../../generic/strategy.ts";

const asFS = (o: KubeObject): FlowSchema => o;

export const flowSchemaStrategy: RESTStrategy = {
  group: "flowcontrol.apiserver.k8s.io",
  kind: "FlowSchema",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaults: (o) => setDefaultsFlowSchema(asFS(o)),
  // PrepareForCreate: the status is the controller's; generation starts at 1.
  prepareForCreate: (o) => {
    o["status"] = {};
    o.metadata.generation = 1;
  },
  prepareForUpdate: (o, old) => {
    keepStatus(o, old);
    bumpGeneration(o, old);
  },
  validate: (o) => validateFlowSchema(asFS(o)),
  validateUpdate: (o) => validateFlowSchema(asFS(o)),
  subresources: {
    status: { prepareForUpdate: resetForStatus, validateUpdate: (o) => validateConditions(asFS(o).status?.conditions, "status") },
  },
};
