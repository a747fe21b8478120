/** Feeds objects into a proxier the way informers would: the tracer computes a node's rules with it, and tests and the benchmark too. */
import type { EndpointSlice, Node, Service } from "@servicenet/api";
import type { Provider } from "../proxy/provider.ts";

/** Adds Services, slices and Nodes (a proxier reads its own Node's zone for topology), then reports the initial lists as synced. */
export function populate(p: Provider, services: readonly Service[], slices: readonly EndpointSlice[], nodes: readonly Node[] = []): void {
  for (const n of nodes) p.onNodeAdd(n);
  for (const s of services) p.onServiceAdd(s);
  for (const s of slices) p.onEndpointSliceAdd(s);
  p.onServiceSynced();
  p.onEndpointSlicesSynced();
}
