/** apps/v1 ControllerRevision REST strategy (pkg/registry/apps/controllerrevision/strategy.go). */
import { validateControllerRevision, validateControllerRevisionUpdate, type ControllerRevision } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

const cr = (o: KubeObject): ControllerRevision => o as unknown as ControllerRevision;

/** Namespaced; nothing is prepared; data is immutable; PUT needs an existing object but no resourceVersion. */
export const controllerRevisionStrategy: RESTStrategy = {
  group: "apps",
  kind: "ControllerRevision",
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: (o) => validateControllerRevision(cr(o)),
  validateUpdate: (o, old) => validateControllerRevisionUpdate(cr(o), cr(old)),
};
