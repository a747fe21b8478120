/** Node REST strategy (pkg/registry/core/node/strategy.go), cluster-scoped, with a status subresource. */
import { validateNode, validateNodeUpdate, type Node } from "@servicenet/api";
import { resetForStatus, type RESTStrategy } from "../../generic/strategy.ts";

export const nodeStrategy: RESTStrategy<Node> = {
  group: "",
  kind: "Node",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => {},
  prepareForUpdate: (o, old) => {
    if (old.status === undefined) delete o.status;
    else o.status = structuredClone(old.status);
  },
  validate: validateNode,
  validateUpdate: validateNodeUpdate,
  selectableFieldNames: ["spec.unschedulable"],
  selectableFields: (o) => ({ "spec.unschedulable": String(o.spec?.unschedulable === true) }),
  subresources: { status: { prepareForUpdate: resetForStatus, validateUpdate: validateNodeUpdate } },
};
