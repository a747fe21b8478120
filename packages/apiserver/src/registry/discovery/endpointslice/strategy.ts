/** EndpointSlice REST strategy (pkg/registry/discovery/endpointslice/strategy.go). */
import { setDefaultsEndpointSlice, validateEndpointSlice, validateEndpointSliceUpdate, type EndpointSlice } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

const asSlice = (o: KubeObject): EndpointSlice => o as unknown as EndpointSlice;
const content = (o: KubeObject): unknown => [o["addressType"], o["endpoints"], o["ports"]];

export const endpointSliceStrategy: RESTStrategy = {
  group: "discovery.k8s.io",
  kind: "EndpointSlice",
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaults: (o) => void setDefaultsEndpointSlice(asSlice(o)),
  prepareForCreate: () => {},
  prepareForUpdate: (o, old) => {
    // Slices have no spec: generation follows the endpoints/ports content.
    o.metadata.generation = (old.metadata.generation ?? 1) + (JSON.stringify(content(o)) === JSON.stringify(content(old)) ? 0 : 1);
  },
  validate: (o) => validateEndpointSlice(asSlice(o)),
  validateUpdate: (o, old) => validateEndpointSliceUpdate(asSlice(o), asSlice(old)),
};
