/** Feeds objects into a proxier the way informers would: the tracer computes a node's rules with it, and tests and the benchmark too. */
import type { EndpointSlice, Service } from "@servicenet/api";
import type { Provider } from "../proxy/provider.ts";

/** Adds Services and slices, then reports both initial lists as synced. */
export function populate(p: Provider, services: readonly Service[], slices: readonly EndpointSlice[]): void {
  for (const s of services) p.onServiceAdd(s);
  for (const s of slices) p.onEndpointSliceAdd(s);
  p.onServiceSynced();
  p.onEndpointSlicesSynced();
}
