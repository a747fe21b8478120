/** `SliceInfo` (staging/src/k8s.io/endpointslice/topologycache/sliceinfo.go). */
import type { EndpointSlice } from "@servicenet/api";
import type { Allocation } from "./utils.ts";
import { getHintsByZone, numReadyEndpoints, withoutHints } from "./utils.ts";

/** The slices of one Service and address type in one reconcile; toCreate/toUpdate are the reconciler's own objects. */
export interface SliceInfo {
  readonly serviceKey: string;
  readonly addressType: string;
  toCreate: EndpointSlice[];
  toUpdate: EndpointSlice[];
  /** The informer's objects: copied before any change. */
  unchanged: EndpointSlice[];
}

/** `getTotalReadyEndpoints`. */
export function totalReadyEndpoints(si: SliceInfo): number {
  let n = 0;
  for (const s of [...si.toCreate, ...si.toUpdate, ...si.unchanged]) n += numReadyEndpoints(s.endpoints);
  return n;
}

/**
 * `getAllocatedHintsByZone`: the hints unchanged slices already hold, per zone.
 * An unchanged slice with an endpoint without hints, a hint for a zone that
 * needs none, or hints beyond a zone's maximum moves to the updates.
 */
export function allocatedHintsByZone(si: SliceInfo, allocations: ReadonlyMap<string, Allocation>): Map<string, number> {
  const allocated = new Map<string, number>();
  const keep: EndpointSlice[] = [];
  for (const slice of si.unchanged) {
    const byZone = getHintsByZone(slice, allocated, allocations);
    if (byZone === null) {
      si.toUpdate.push({ ...slice, endpoints: [...slice.endpoints] });
      continue;
    }
    keep.push(slice);
    for (const [zone, n] of byZone) allocated.set(zone, (allocated.get(zone) ?? 0) + n);
  }
  si.unchanged = keep;
  return allocated;
}

/**
 * `RemoveHintsFromSlices`: no hints on the slices being created or updated; an
 * unchanged slice that had some is copied, cleared and moved to the updates.
 */
export function removeHintsFromSlices(si: SliceInfo): { toCreate: EndpointSlice[]; toUpdate: EndpointSlice[] } {
  for (const slice of [...si.toCreate, ...si.toUpdate]) slice.endpoints = slice.endpoints.map((ep) => (ep.hints ? withoutHints(ep) : ep));
  const keep: EndpointSlice[] = [];
  for (const slice of si.unchanged) {
    if (slice.endpoints.some((ep) => ep.hints !== undefined)) {
      si.toUpdate.push({ ...slice, endpoints: slice.endpoints.map((ep) => (ep.hints ? withoutHints(ep) : ep)) });
    } else keep.push(slice);
  }
  si.unchanged = keep;
  return { toCreate: si.toCreate, toUpdate: si.toUpdate };
}
