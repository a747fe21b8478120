/**
 * What one reconcile of a Service tells the metrics, as upstream's `reconcileByAddressType` and
 * `finalize` (`staging/src/k8s.io/endpointslice/reconciler.go`) observe them: per address type the
 * endpoints added and removed and the slices changed (labelled by topology mode and traffic
 * distribution), and the Service's endpoints and slices per port map for the cache's totals.
 */
import type { EndpointSlice, Service } from "@servicenet/api";
import { hintsEnabled } from "../hints.ts";
import { endpointKey, portMapKey } from "../utils.ts";
import type { SliceChanges } from "../reconciler.ts";
import type { EfficiencyInfo, EndpointSliceMetricsCache } from "./cache.ts";
import type { EndpointSliceMetrics } from "./metrics.ts";

function endpointsOf(slices: readonly EndpointSlice[]): Set<string> {
  const out = new Set<string>();
  for (const s of slices) for (const ep of s.endpoints ?? []) out.add(`${portMapKey(s.ports)}|${endpointKey(ep)}`);
  return out;
}

/** The slices after the plan is applied: the existing ones, updated or deleted, and the new ones. */
function finalSlices(existing: readonly EndpointSlice[], plan: SliceChanges): EndpointSlice[] {
  const byName = new Map(existing.map((s) => [s.metadata.name ?? "", s]));
  for (const s of plan.toDelete) byName.delete(s.metadata.name ?? "");
  for (const s of plan.toUpdate) byName.set(s.metadata.name ?? "", s);
  return [...byName.values(), ...plan.toCreate];
}

/** Records one reconcile of `service` (key `key`) with the slices it had and the planned writes. */
export function observeReconcile(
  m: EndpointSliceMetrics,
  cache: EndpointSliceMetricsCache,
  key: string,
  o: { service: Service; existing: readonly EndpointSlice[]; plan: SliceChanges; topologyCacheEnabled: boolean },
): void {
  const auto = hintsEnabled(o.service.metadata.annotations);
  const topology = o.topologyCacheEnabled && auto ? "Auto" : "Disabled";
  const td = o.service.spec.trafficDistribution;
  const trafficDistribution = !auto && td === "PreferClose" ? td : "";
  const after = finalSlices(o.existing, o.plan);
  const byPortMap = new Map<string, EfficiencyInfo>();
  const types = new Set([...o.existing, ...after].map((s) => s.addressType));
  for (const t of types) {
    const of = (slices: readonly EndpointSlice[]) => slices.filter((s) => s.addressType === t);
    const before = endpointsOf(of(o.existing));
    const now = endpointsOf(of(after));
    m.endpointsAddedPerSync.observe({}, [...now].filter((e) => !before.has(e)).length);
    m.endpointsRemovedPerSync.observe({}, [...before].filter((e) => !now.has(e)).length);
    const changed = [o.plan.toCreate, o.plan.toUpdate, o.plan.toDelete].reduce((n, l) => n + of(l).length, 0);
    m.endpointSlicesChangedPerSync.observe({ topology, traffic_distribution: trafficDistribution }, changed);
    for (const s of of(after)) {
      const k = `${t}|${portMapKey(s.ports)}`;
      const info = byPortMap.get(k) ?? { endpoints: 0, slices: 0 };
      byPortMap.set(k, { endpoints: info.endpoints + (s.endpoints?.length ?? 0), slices: info.slices + 1 });
    }
  }
  cache.updateServicePortCache(key, byPortMap);
  cache.updateTrafficDistributionForService(key, td);
}
