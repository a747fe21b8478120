/** Node REST strategy (pkg/registry/core/node/strategy.go), cluster-scoped, with a status subresource. */
import { validateNode, validateNodeUpdate, type Node } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import { resetForStatus, type RESTStrategy } from "../../generic/strategy.ts";

const asNode = (o: KubeObject): Node => o as unknown as Node;

export const nodeStrategy: RESTStrategy = {
  group: "",
  kind: "Node",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => {},
  prepareForUpdate: (o, old) => {
    if (old["status"] === undefined) delete o["status"];
    else o["status"] = structuredClone(old["status"]);
  },
  validate: (o) => validateNode(asNode(o)),
  validateUpdate: (o, old) => validateNodeUpdate(asNode(o), asNode(old)),
  selectableFieldNames: ["spec.unschedulable"],
  selectableFields: (o) => ({ "spec.unschedulable": String(((o["spec"] ?? {}) as Record<string, unknown>)["unschedulable"] === true) }),
  subresources: { status: { prepareForUpdate: resetForStatus, validateUpdate: (o, old) => validateNodeUpdate(asNode(o), asNode(old)) } },
};
