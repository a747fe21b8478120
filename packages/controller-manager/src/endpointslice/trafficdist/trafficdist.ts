/**
 * Hints for `spec.trafficDistribution` (staging/src/k8s.io/endpointslice/
 * trafficdist/trafficdist.go, Kubernetes 1.33): PreferClose and PreferSameZone
 * hint every ready endpoint for its own zone, PreferSameNode also for its own
 * node; anything else removes hints.
 */
import type { EndpointSlice, EndpointSliceEndpoint } from "@servicenet/api";

/** Values the preferClose heuristic handles (`closeTrafficDistribution`). */
const closeTrafficDistribution = new Set(["PreferClose", "PreferSameZone", "PreferSameNode"]);

export interface HintedSlices {
  readonly toCreate: EndpointSlice[];
  readonly toUpdate: EndpointSlice[];
  readonly unchanged: EndpointSlice[];
}

interface Heuristic {
  needsUpdate(slice: EndpointSlice): boolean;
  /** The endpoint with the hints this heuristic wants (the same object when nothing changes). */
  update(ep: EndpointSliceEndpoint): EndpointSliceEndpoint;
}

/** `endpointReady`: the Ready condition is set and true. */
export function endpointReady(ep: EndpointSliceEndpoint): boolean {
  return ep.conditions?.ready === true;
}

function withHints(ep: EndpointSliceEndpoint, hints: EndpointSliceEndpoint["hints"]): EndpointSliceEndpoint {
  const { hints: _old, ...rest } = ep;
  return hints === undefined ? rest : { ...rest, hints };
}

/** `defaultHeuristic`: cluster-wide routing, so no endpoint keeps a hint. */
const defaultHeuristic: Heuristic = {
  needsUpdate: (slice) => slice.endpoints.some((ep) => ep.hints !== undefined),
  update: (ep) => (ep.hints === undefined ? ep : withHints(ep, undefined)),
};

/** `preferCloseHeuristic`: a ready endpoint is hinted for its own zone (and node, for PreferSameNode). */
function preferCloseHeuristic(generateNodeHints: boolean): Heuristic {
  const wrong = (ep: EndpointSliceEndpoint): boolean => {
    const zones = ep.hints?.forZones ?? [];
    const nodes = ep.hints?.forNodes ?? [];
    if (ep.zone !== undefined) {
      if (zones.length !== 1 || zones[0]?.name !== ep.zone) return true;
    } else if (zones.length > 0) return true;
    if (ep.nodeName !== undefined && generateNodeHints) {
      if (nodes.length !== 1 || nodes[0]?.name !== ep.nodeName) return true;
    } else if (nodes.length > 0) return true;
    return false;
  };
  return {
    needsUpdate: (slice) => slice.endpoints.some((ep) => endpointReady(ep) && wrong(ep)),
    update: (ep) => {
      if (!endpointReady(ep)) return ep;
      const forZones = ep.zone !== undefined ? [{ name: ep.zone }] : undefined;
      const forNodes = ep.nodeName !== undefined && generateNodeHints ? [{ name: ep.nodeName }] : undefined;
      if (forZones === undefined && forNodes === undefined) return withHints(ep, undefined);
      return withHints(ep, { ...(forZones ? { forZones } : {}), ...(forNodes ? { forNodes } : {}) });
    },
  };
}

/**
 * `ReconcileHints`: unchanged slices whose hints are missing or wrong move to
 * the updates (as copies: they are the informer's objects), then every slice
 * to create or update gets the heuristic's hints. `toCreate`/`toUpdate` slices
 * are the caller's own and are changed in place (their endpoint arrays).
 */
export function reconcileHints(
  trafficDistribution: string | undefined,
  toCreate: EndpointSlice[],
  toUpdate: EndpointSlice[],
  unchanged: readonly EndpointSlice[],
): HintedSlices {
  const h =
    trafficDistribution !== undefined && closeTrafficDistribution.has(trafficDistribution)
      ? preferCloseHeuristic(trafficDistribution === "PreferSameNode")
      : defaultHeuristic;
  const stillUnchanged: EndpointSlice[] = [];
  const updates = [...toUpdate];
  for (const slice of unchanged) {
    if (h.needsUpdate(slice)) updates.push({ ...slice, endpoints: [...slice.endpoints] });
    else stillUnchanged.push(slice);
  }
  for (const slice of [...toCreate, ...updates]) slice.endpoints = slice.endpoints.map((ep) => h.update(ep));
  return { toCreate, toUpdate: updates, unchanged: stillUnchanged };
}
