/** Versioned defaulting of discovery.k8s.io/v1 (pkg/apis/discovery/v1/defaults.go). */
import type { EndpointSlice } from "./types.ts";

/**
 * `SetDefaults_EndpointPort` for every port of the slice: a port without
 * name gets "" and one without protocol gets "TCP". Like the generated
 * defaulters it mutates in place (the registry strategy ignores the result);
 * it also returns `slice` for chaining.
 */
export function setDefaultsEndpointSlice(slice: EndpointSlice): EndpointSlice {
  for (const p of slice.ports ?? []) {
    if (p.name === undefined || p.name === null) p.name = "";
    if (p.protocol === undefined || p.protocol === null) p.protocol = "TCP";
  }
  return slice;
}
