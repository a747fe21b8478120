/**
 * upstream `pkg/controller/endpointslicemirroring/metrics/cache.go`: per Endpoints resource and
 * port map, how many endpoints there are and in how many slices, for the cluster-wide
 * `endpoints_desired`, `num_endpoint_slices` and `desired_endpoint_slices`. The totals are the
 * EndpointSlice controller's cache (the same arithmetic upstream writes twice), over this
 * controller's gauges.
 */
import { EndpointSliceMetricsCache, type EfficiencyInfo } from "../../endpointslice/metrics/cache.ts";
import type { EndpointSliceMirroringMetrics } from "./metrics.ts";

/** upstream `EndpointPortCache`: the endpoints and slices of each port map of one Endpoints resource. */
export class EndpointPortCache {
  readonly items = new Map<string, EfficiencyInfo>();

  /** upstream `Set`. */
  set(portMapKey: string, info: EfficiencyInfo): void {
    this.items.set(portMapKey, info);
  }
}

/** upstream `Cache`, made by `NewCache(maxEndpointsPerSubset)`. */
export class EndpointSliceMirroringMetricsCache {
  readonly #totals: EndpointSliceMetricsCache;

  constructor(metrics: EndpointSliceMirroringMetrics, maxEndpointsPerSubset: number) {
    this.#totals = new EndpointSliceMetricsCache(metrics, maxEndpointsPerSubset);
  }

  /** upstream `UpdateEndpointPortCache`: the Endpoints' port maps (key `namespace/name`), replacing what it had. */
  updateEndpointPortCache(endpointsKey: string, epCache: EndpointPortCache): void {
    this.#totals.updateServicePortCache(endpointsKey, epCache.items);
  }

  /** upstream `DeleteEndpoints`. */
  deleteEndpoints(endpointsKey: string): void {
    this.#totals.deleteService(endpointsKey);
  }
}
