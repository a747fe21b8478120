/** EndpointSlice REST strategy (pkg/registry/discovery/endpointslice/strategy.go). */
import { setDefaultsEndpointSlice, validateEndpointSlice, validateEndpointSliceUpdate, type EndpointSlice } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import { jsonEqual, type RESTStrategy } from "../../generic/strategy.ts";

/** Everything but metadata, plus the labels: what upstream's PrepareForUpdate compares. */
const content = (o: KubeObject): unknown => {
  const { metadata, apiVersion: _a, kind: _k, ...rest } = o;
  return [rest, metadata.labels ?? {}];
};

export const endpointSliceStrategy: RESTStrategy<EndpointSlice> = {
  group: "discovery.k8s.io",
  kind: "EndpointSlice",
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaults: (o) => void setDefaultsEndpointSlice(o),
  prepareForCreate: (o) => {
    o.metadata.generation = 1;
  },
  prepareForUpdate: (o, old) => {
    // Slices have no spec: anything but metadata, or the labels, changing bumps the generation.
    if (!jsonEqual(content(o), content(old))) o.metadata.generation = (old.metadata.generation ?? 0) + 1;
  },
  validate: validateEndpointSlice,
  validateUpdate: validateEndpointSliceUpdate,
};
