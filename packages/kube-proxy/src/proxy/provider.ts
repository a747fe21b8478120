/** `proxy.Provider`: the event handlers every proxier (and the meta proxier) implements. */
import type { EndpointSlice, Node, Service, ServiceCIDR } from "@servicenet/api";

export interface Provider {
  onServiceAdd(svc: Service): void;
  onServiceUpdate(oldSvc: Service, svc: Service): void;
  onServiceDelete(svc: Service): void;
  onServiceSynced(): void;
  onEndpointSliceAdd(slice: EndpointSlice): void;
  onEndpointSliceUpdate(oldSlice: EndpointSlice, slice: EndpointSlice): void;
  onEndpointSliceDelete(slice: EndpointSlice): void;
  onEndpointSlicesSynced(): void;
  onNodeAdd(node: Node): void;
  onNodeUpdate(oldNode: Node, node: Node): void;
  onNodeDelete(node: Node): void;
  onNodeSynced(): void;
  onServiceCIDRsChanged(cidrs: readonly string[]): void;
  /** Requests a sync (upstream queues it on the BoundedFrequencyRunner). */
  sync(): void;
}

/** Collects the CIDR strings of ServiceCIDR objects for `onServiceCIDRsChanged`. */
export function serviceCIDRStrings(objs: readonly ServiceCIDR[]): string[] {
  return objs.flatMap((o) => o.spec?.cidrs ?? []);
}
