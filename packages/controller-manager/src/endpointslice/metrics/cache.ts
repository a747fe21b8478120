/**
 * upstream `staging/src/k8s.io/endpointslice/metrics/cache.go`: per Service and port map, how many
 * endpoints there are and in how many slices, so that the totals (`endpoints_desired`,
 * `num_endpoint_slices`, `desired_endpoint_slices`) and `services_count_by_traffic_distribution`
 * are kept for the whole cluster.
 */
import type { EndpointSliceMetrics } from "./metrics.ts";

/**
 * The gauges the cache keeps: the mirroring controller's cache (upstream
 * `endpointslicemirroring/metrics/cache.go`) has the totals but no trafficDistribution count.
 */
export type CacheMetrics = Pick<EndpointSliceMetrics, "endpointsDesired" | "numEndpointSlices" | "desiredEndpointSlices"> &
  Partial<Pick<EndpointSliceMetrics, "servicesCountByTrafficDistribution">>;

/** upstream `EfficiencyInfo`: the endpoints of one port map and the slices holding them. */
export interface EfficiencyInfo {
  endpoints: number;
  slices: number;
}

/** A trafficDistribution this controller does not recognise counts as this (bounded label values). */
const implementationSpecific = "ImplementationSpecific";

/** upstream `numDesiredSlices`. */
export function numDesiredSlices(numEndpoints: number, maxEndpointsPerSlice: number): number {
  if (numEndpoints === 0) return 0;
  if (numEndpoints <= maxEndpointsPerSlice) return 1;
  return Math.ceil(numEndpoints / maxEndpointsPerSlice);
}

export class EndpointSliceMetricsCache {
  readonly #metrics: CacheMetrics;
  readonly #maxEndpointsPerSlice: number;
  readonly #services = new Map<string, ReadonlyMap<string, EfficiencyInfo>>();
  readonly #trafficDistribution = new Map<string, string>();
  /** Label values ever set: the registry keeps a series once made, so an unused one is set to 0. */
  readonly #emitted = new Set<string>();

  constructor(metrics: CacheMetrics, maxEndpointsPerSlice: number) {
    this.#metrics = metrics;
    this.#maxEndpointsPerSlice = maxEndpointsPerSlice;
  }

  /** upstream `UpdateServicePortCache`: the Service's port maps, replacing what it had. */
  updateServicePortCache(key: string, byPortMap: ReadonlyMap<string, EfficiencyInfo>): void {
    this.#services.set(key, byPortMap);
    this.#updateTotals();
  }

  /** upstream `UpdateTrafficDistributionForService`: undefined forgets the Service. */
  updateTrafficDistributionForService(key: string, trafficDistribution: string | undefined): void {
    if (trafficDistribution === undefined) this.#trafficDistribution.delete(key);
    else this.#trafficDistribution.set(key, trafficDistribution === "PreferClose" ? trafficDistribution : implementationSpecific);
    const counts = new Map<string, number>();
    for (const td of this.#trafficDistribution.values()) counts.set(td, (counts.get(td) ?? 0) + 1);
    for (const td of counts.keys()) this.#emitted.add(td);
    for (const td of this.#emitted)
      this.#metrics.servicesCountByTrafficDistribution?.set({ traffic_distribution: td }, counts.get(td) ?? 0);
  }

  /** upstream `DeleteService`. */
  deleteService(key: string): void {
    this.#services.delete(key);
    this.updateTrafficDistributionForService(key, undefined);
    this.#updateTotals();
  }

  #updateTotals(): void {
    let endpoints = 0;
    let actual = 0;
    let desired = 0;
    for (const ports of this.#services.values())
      for (const info of ports.values()) {
        endpoints += info.endpoints;
        actual += info.slices;
        desired += numDesiredSlices(info.endpoints, this.#maxEndpointsPerSlice);
      }
    this.#metrics.endpointsDesired.set({}, endpoints);
    this.#metrics.numEndpointSlices.set({}, actual);
    this.#metrics.desiredEndpointSlices.set({}, desired);
  }
}
