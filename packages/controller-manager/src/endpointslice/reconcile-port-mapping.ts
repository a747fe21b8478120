/**
 * `reconcileByPortMapping` of the upstream reconciler: for one address type
 * and one port map, keep matching endpoints in place, update slices whose
 * endpoints changed, fill partially full slices before creating new ones.
 */
import type { EndpointSlice, EndpointSliceEndpoint, EndpointSlicePort, Service } from "@servicenet/api";
import { endpointKey, endpointsEqualBeyondKey, newEndpointSlice, sliceLabels, type SliceAddressType } from "./utils.ts";

export interface PortMappingChanges {
  toCreate: EndpointSlice[];
  toUpdate: EndpointSlice[];
  toDelete: EndpointSlice[];
}

/** Plans one port-map group. `desired` is consumed (endpoints are popped as they are placed). */
export function reconcileByPortMapping(
  svc: Service,
  existing: readonly EndpointSlice[],
  desired: Map<string, EndpointSliceEndpoint>,
  meta: { addressType: SliceAddressType; ports: EndpointSlicePort[] },
  max: number,
): PortMappingChanges {
  const byName = new Map<string, EndpointSlice>();
  const unchanged = new Set<string>();
  const toUpdate = new Set<string>();
  const toDelete = new Set<string>();

  // 1. Drop endpoints no longer desired, refresh changed ones, keep the rest in place.
  for (const slice of existing) {
    const name = slice.metadata.name ?? "";
    byName.set(name, slice);
    const kept: EndpointSliceEndpoint[] = [];
    let endpointUpdated = false;
    for (const ep of slice.endpoints) {
      const key = endpointKey(ep);
      const want = desired.get(key);
      if (want === undefined) continue;
      kept.push(want);
      if (!endpointsEqualBeyondKey(want, ep)) endpointUpdated = true;
      desired.delete(key);
    }
    const { labels, changed } = sliceLabels(slice, svc);
    if (endpointUpdated || kept.length !== slice.endpoints.length) {
      if (kept.length === 0) toDelete.add(name);
      else {
        byName.set(name, { ...slice, metadata: { ...slice.metadata, labels }, endpoints: kept });
        toUpdate.add(name);
      }
    } else if (changed) {
      byName.set(name, { ...slice, metadata: { ...slice.metadata, labels }, endpoints: [...slice.endpoints] });
      toUpdate.add(name);
    } else unchanged.add(name);
  }

  const pop = (): EndpointSliceEndpoint => {
    const [key, ep] = desired.entries().next().value!;
    desired.delete(key);
    return ep;
  };

  // 2. Slices being updated anyway take new endpoints first, fullest first.
  if (desired.size > 0 && toUpdate.size > 0) {
    const slices = [...toUpdate].map((n) => byName.get(n)!).sort((a, b) => b.endpoints.length - a.endpoints.length);
    for (const s of slices) while (desired.size > 0 && s.endpoints.length < max) s.endpoints.push(pop());
  }

  // 3. What is left goes into the unchanged slice it fits best, else into new slices.
  const toCreate: EndpointSlice[] = [];
  while (desired.size > 0) {
    let fill: EndpointSlice | undefined;
    if (desired.size < max && unchanged.size > 0) {
      const candidate = sliceToFill(
        [...unchanged].map((n) => byName.get(n)!),
        desired.size,
        max,
      );
      if (candidate !== undefined) {
        fill = { ...candidate, endpoints: [...candidate.endpoints] };
        byName.set(fill.metadata.name ?? "", fill);
      }
    }
    fill ??= newEndpointSlice(svc, meta.addressType, meta.ports);
    while (desired.size > 0 && fill.endpoints.length < max) fill.endpoints.push(pop());
    if (fill.metadata.name) {
      toUpdate.add(fill.metadata.name);
      unchanged.delete(fill.metadata.name);
    } else toCreate.push(fill);
  }

  return { toCreate, toUpdate: [...toUpdate].map((n) => byName.get(n)!), toDelete: [...toDelete].map((n) => byName.get(n)!) };
}

/** The slice closest to full after adding `n` endpoints, if any fits (`getSliceToFill`). */
export function sliceToFill(slices: readonly EndpointSlice[], n: number, max: number): EndpointSlice | undefined {
  let closestDiff = max;
  let closest: EndpointSlice | undefined;
  for (const s of slices) {
    const diff = max - (n + s.endpoints.length);
    if (diff >= 0 && diff < closestDiff) {
      closestDiff = diff;
      closest = s;
      if (diff === 0) break;
    }
  }
  return closest;
}
