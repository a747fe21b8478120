/**
 * What the iptables and nftables proxiers share: the event handlers feeding the
 * change trackers, the initialized gate (both Synced events seen) and the
 * full/partial sync decision.
 */
import type { EndpointSlice, IPFamily, Node, Service } from "@servicenet/api";
import { EndpointsChangeTracker, updateEndpointsMap } from "../tracker/endpoints-change-tracker.ts";
import type { EndpointsMap, UpdateEndpointsMapResult } from "../tracker/endpoints-change-tracker.ts";
import { ServiceChangeTracker, updateServicePortMap } from "../tracker/service-change-tracker.ts";
import type { ServicePortMap, UpdateServiceMapResult } from "../tracker/service-change-tracker.ts";
import { cidrsOfFamily } from "./service-port.ts";
import type { Provider } from "./provider.ts";
import { labelTopologyZone } from "./topology.ts";
import type { TopologyContext } from "./topology.ts";

export interface BaseProxierOptions {
  readonly ipFamily: IPFamily;
  readonly nodeName: string;
  /** Milliseconds since the epoch; injectable for tests. */
  readonly clock?: () => number;
  /** A full sync is forced after this long (upstream `FullSyncPeriod`, 1 h). */
  readonly fullSyncPeriodMs?: number;
  /** Feature gate PreferSameTrafficDistribution (1.33: alpha, off): honour endpoints' `forNodes` hints. */
  readonly preferSameTrafficDistribution?: boolean;
}

/** Changes taken from the trackers for one sync. */
export interface SyncChanges {
  readonly full: boolean;
  readonly services: UpdateServiceMapResult;
  readonly endpoints: UpdateEndpointsMapResult;
}

export abstract class BaseProxier implements Provider {
  readonly ipFamily: IPFamily;
  readonly nodeName: string;
  readonly svcPortMap: ServicePortMap = new Map();
  readonly endpointsMap: EndpointsMap = new Map();
  readonly serviceChanges: ServiceChangeTracker;
  readonly endpointsChanges: EndpointsChangeTracker;
  /** Called by `sync()`; the runner hooks its scheduling in here. */
  onSyncRequested: (() => void) | undefined;
  protected readonly clock: () => number;
  protected needFullSync = true;
  protected serviceCIDRs: string[] = [];
  protected nodeLabels: Record<string, string> = {};
  /**
   * This node's name and zone for topology hints; a new object whenever the zone
   * changes, so that renderings cached per Service can tell they are out of date.
   */
  protected topology: TopologyContext;
  /** The nftables proxier writes the service CIDRs into its fixed rules, which only full syncs rewrite. */
  protected serviceCIDRsInBaseRules = false;
  #servicesSynced = false;
  #endpointSlicesSynced = false;
  #lastFullSync = 0;
  readonly #fullSyncPeriodMs: number;

  constructor(opts: BaseProxierOptions) {
    this.ipFamily = opts.ipFamily;
    this.nodeName = opts.nodeName;
    this.clock = opts.clock ?? Date.now;
    this.#fullSyncPeriodMs = opts.fullSyncPeriodMs ?? 3_600_000;
    this.serviceChanges = new ServiceChangeTracker(opts.ipFamily);
    this.endpointsChanges = new EndpointsChangeTracker(opts.ipFamily, opts.nodeName, this.clock());
    this.topology = Object.freeze({
      nodeName: opts.nodeName,
      zone: "",
      preferSameTrafficDistribution: opts.preferSameTrafficDistribution ?? false,
    });
  }

  /** Both initial lists have been seen; before that no rules are written. */
  isInitialized(): boolean {
    return this.#servicesSynced && this.#endpointSlicesSynced;
  }

  /** For tests and the benchmark: behave as if both initial lists were seen. */
  setInitialized(value: boolean): void {
    this.#servicesSynced = value;
    this.#endpointSlicesSynced = value;
  }

  /** Forces the next sync to be a full one (after a failed restore, node label change...). */
  markNeedFullSync(): void {
    this.needFullSync = true;
  }

  sync(): void {
    this.onSyncRequested?.();
  }

  #changed(pending: boolean): void {
    if (pending && this.isInitialized()) this.sync();
  }

  onServiceAdd(svc: Service): void {
    this.#changed(this.serviceChanges.update(undefined, svc));
  }
  onServiceUpdate(oldSvc: Service, svc: Service): void {
    this.#changed(this.serviceChanges.update(oldSvc, svc));
  }
  onServiceDelete(svc: Service): void {
    this.#changed(this.serviceChanges.update(svc, undefined));
  }
  onServiceSynced(): void {
    this.#servicesSynced = true;
    this.sync();
  }
  onEndpointSliceAdd(slice: EndpointSlice): void {
    this.#changed(this.endpointsChanges.endpointSliceUpdate(slice, false));
  }
  onEndpointSliceUpdate(_oldSlice: EndpointSlice, slice: EndpointSlice): void {
    this.#changed(this.endpointsChanges.endpointSliceUpdate(slice, false));
  }
  onEndpointSliceDelete(slice: EndpointSlice): void {
    this.#changed(this.endpointsChanges.endpointSliceUpdate(slice, true));
  }
  onEndpointSlicesSynced(): void {
    this.#endpointSlicesSynced = true;
    this.sync();
  }
  onNodeAdd(node: Node): void {
    this.#nodeChanged(node);
  }
  onNodeUpdate(_oldNode: Node, node: Node): void {
    this.#nodeChanged(node);
  }
  onNodeDelete(node: Node): void {
    if (node.metadata.name !== this.nodeName) return;
    this.#setNodeLabels({});
    this.sync();
  }
  onNodeSynced(): void {}

  /** Only this node's labels matter (topology); a change forces a full sync as upstream. */
  #nodeChanged(node: Node): void {
    if (node.metadata.name !== this.nodeName) return;
    const labels = node.metadata.labels ?? {};
    if (JSON.stringify(labels) === JSON.stringify(this.nodeLabels)) return;
    this.#setNodeLabels({ ...labels });
    this.sync();
  }

  #setNodeLabels(labels: Record<string, string>): void {
    this.nodeLabels = labels;
    this.needFullSync = true;
    const zone = labels[labelTopologyZone] ?? "";
    if (zone !== this.topology.zone) this.topology = Object.freeze({ ...this.topology, zone });
  }

  onServiceCIDRsChanged(cidrs: readonly string[]): void {
    const mine = cidrsOfFamily(this.ipFamily, cidrs);
    if (mine.join(",") === this.serviceCIDRs.join(",")) return;
    this.serviceCIDRs = mine;
    if (this.serviceCIDRsInBaseRules) this.needFullSync = true;
    this.sync();
  }

  /** Takes the pending changes into the maps and decides full vs partial. */
  protected takeChanges(): SyncChanges {
    const now = this.clock();
    const full = this.needFullSync || now - this.#lastFullSync >= this.#fullSyncPeriodMs;
    const services = updateServicePortMap(this.svcPortMap, this.serviceChanges);
    const endpoints = updateEndpointsMap(this.endpointsMap, this.endpointsChanges);
    return { full, services, endpoints };
  }

  /**
   * What the service health servers need after a sync: `ServicePortMap.HealthCheckNodePorts`
   * and `EndpointsMap.LocalReadyEndpoints` (distinct local ready endpoints per Service, all ports).
   */
  serviceHealthReport(): { services: Map<string, number>; localEndpoints: Map<string, number> } {
    const services = new Map<string, number>();
    const local = new Map<string, Set<string>>();
    for (const [key, svc] of this.svcPortMap) {
      const nsn = `${svc.name.namespace}/${svc.name.name}`;
      if (svc.healthCheckNodePort !== 0) services.set(nsn, svc.healthCheckNodePort);
      for (const ep of this.endpointsMap.get(key) ?? []) {
        if (!ep.isLocal || !ep.ready) continue;
        let set = local.get(nsn);
        if (set === undefined) local.set(nsn, (set = new Set()));
        set.add(ep.endpoint);
      }
    }
    return { services, localEndpoints: new Map([...local].map(([nsn, set]) => [nsn, set.size])) };
  }

  /** Called by the runner after the rules of a sync were applied (or written in dry-run). */
  protected markSynced(full: boolean): void {
    this.needFullSync = false;
    if (full) this.#lastFullSync = this.clock();
  }
}
