/** Endpoints REST strategy (pkg/registry/core/endpoint/strategy.go). */
import { setDefaultsEndpoints, validateEndpoints, validateEndpointsUpdate, type Endpoints } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

const asEndpoints = (o: KubeObject): Endpoints => o;

export const endpointsStrategy: RESTStrategy = {
  group: "",
  kind: "Endpoints",
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  defaults: (o) => void setDefaultsEndpoints(asEndpoints(o)),
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: (o) => validateEndpoints(asEndpoints(o)),
  validateUpdate: (o, old) => validateEndpointsUpdate(asEndpoints(o), asEndpoints(old)),
};
