/**
 * `metaproxier.NewMetaProxier` (pkg/proxy/metaproxier/meta_proxier.go): one
 * Provider in front of an IPv4 and an IPv6 proxier.
 *
 * Services, Nodes, ServiceCIDRs and the Synced events go to both proxiers
 * unmodified; each family's ServiceChangeTracker picks its ClusterIP (with the
 * `spec.clusterIP` family fallback for Services without `ipFamilies`).
 * EndpointSlices go to the one proxier of their addressType.
 */
import type { EndpointSlice, Node, Service } from "@servicenet/api";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { Provider } from "../proxy/provider.ts";

export interface MetaProxierOptions {
  /** Where unsupported slices are reported (upstream: klog.ErrorS). */
  readonly logger?: Logger;
}

export class MetaProxier implements Provider {
  readonly ipv4: Provider;
  readonly ipv6: Provider;
  readonly #log: Logger;

  constructor(ipv4: Provider, ipv6: Provider, opts: MetaProxierOptions = {}) {
    this.ipv4 = ipv4;
    this.ipv6 = ipv6;
    this.#log = opts.logger ?? noopLogger;
  }

  /** The proxier for a slice's addressType, or undefined (FQDN and anything else). */
  #forSlice(slice: EndpointSlice): Provider | undefined {
    if (slice.addressType === "IPv4") return this.ipv4;
    if (slice.addressType === "IPv6") return this.ipv6;
    this.#log.error("EndpointSlice address type not supported", {
      endpointSlice: `${slice.metadata.namespace ?? ""}/${slice.metadata.name ?? ""}`,
      addressType: slice.addressType,
    });
    return undefined;
  }

  onServiceAdd(svc: Service): void {
    this.ipv4.onServiceAdd(svc);
    this.ipv6.onServiceAdd(svc);
  }
  onServiceUpdate(oldSvc: Service, svc: Service): void {
    this.ipv4.onServiceUpdate(oldSvc, svc);
    this.ipv6.onServiceUpdate(oldSvc, svc);
  }
  onServiceDelete(svc: Service): void {
    this.ipv4.onServiceDelete(svc);
    this.ipv6.onServiceDelete(svc);
  }
  onServiceSynced(): void {
    this.ipv4.onServiceSynced();
    this.ipv6.onServiceSynced();
  }
  onEndpointSliceAdd(slice: EndpointSlice): void {
    this.#forSlice(slice)?.onEndpointSliceAdd(slice);
  }
  /** Routed by the new slice, as upstream does. */
  onEndpointSliceUpdate(oldSlice: EndpointSlice, slice: EndpointSlice): void {
    this.#forSlice(slice)?.onEndpointSliceUpdate(oldSlice, slice);
  }
  onEndpointSliceDelete(slice: EndpointSlice): void {
    this.#forSlice(slice)?.onEndpointSliceDelete(slice);
  }
  onEndpointSlicesSynced(): void {
    this.ipv4.onEndpointSlicesSynced();
    this.ipv6.onEndpointSlicesSynced();
  }
  onNodeAdd(node: Node): void {
    this.ipv4.onNodeAdd(node);
    this.ipv6.onNodeAdd(node);
  }
  onNodeUpdate(oldNode: Node, node: Node): void {
    this.ipv4.onNodeUpdate(oldNode, node);
    this.ipv6.onNodeUpdate(oldNode, node);
  }
  onNodeDelete(node: Node): void {
    this.ipv4.onNodeDelete(node);
    this.ipv6.onNodeDelete(node);
  }
  onNodeSynced(): void {
    this.ipv4.onNodeSynced();
    this.ipv6.onNodeSynced();
  }
  onServiceCIDRsChanged(cidrs: readonly string[]): void {
    this.ipv4.onServiceCIDRsChanged(cidrs);
    this.ipv6.onServiceCIDRsChanged(cidrs);
  }
  /** IPv4 first, then IPv6. */
  sync(): void {
    this.ipv4.sync();
    this.ipv6.sync();
  }
}
