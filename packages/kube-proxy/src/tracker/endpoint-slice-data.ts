/** Conversion of EndpointSlices into per-Service-port endpoint lists (the EndpointSliceCache's job). */
import { endpointSliceServiceNameLabel } from "@servicenet/api";
import type { EndpointSlice } from "@servicenet/api";
import { compareEndpoints, makeEndpoint } from "../proxy/endpoint.ts";
import type { Endpoint } from "../proxy/endpoint.ts";
import { servicePortKey } from "../proxy/service-port-name.ts";

/** One frozen empty list for the (usual) endpoints without hints: 100k of them survive every sync. */
const noHints: readonly string[] = Object.freeze([]);

/**
 * Hint lists are shared: a cluster has a handful of zones and each endpoint usually names one, so one
 * frozen list per distinct set instead of one array per endpoint and port surviving every sync.
 */
const internedHints = new Map<string, readonly string[]>();
function hintNames(hints: readonly { name: string }[] | undefined): readonly string[] {
  if (hints === undefined || hints.length === 0) return noHints;
  const key = hints.length === 1 ? (hints[0]?.name ?? "") : hints.map((h) => h.name).join("\u0000");
  let names = internedHints.get(key);
  if (names === undefined) {
    names = Object.freeze(hints.map((h) => h.name));
    // Node names as hints could grow without bound: the cache stays a cache.
    if (internedHints.size < 10_000) internedHints.set(key, names);
  }
  return names;
}

/** Endpoints per Service port, keyed by `servicePortKey`. */
export type EndpointsMap = Map<string, readonly Endpoint[]>;

/** The (namespace/service, slice name) keys of a slice, or null when it has no service-name label. */
export function endpointSliceKeys(slice: EndpointSlice): { service: string; slice: string } | null {
  const svcName = slice.metadata.labels?.[endpointSliceServiceNameLabel];
  if (svcName === undefined || svcName === "") return null;
  const ns = slice.metadata.namespace ?? "";
  return { service: `${ns}/${svcName}`, slice: slice.metadata.name ?? "" };
}

/**
 * The endpoints a set of slices of one Service gives, per port. Slices are
 * read in name order and an endpoint seen twice keeps its last record, so the
 * result does not depend on event order.
 */
export function endpointsFromSlices(slices: Iterable<EndpointSlice>, nodeName: string): EndpointsMap {
  const byPort = new Map<string, Map<string, Endpoint>>();
  const sorted = [...slices].sort((a, b) => ((a.metadata.name ?? "") < (b.metadata.name ?? "") ? -1 : 1));
  for (const slice of sorted) {
    const svcName = slice.metadata.labels?.[endpointSliceServiceNameLabel] ?? "";
    for (const port of slice.ports ?? []) {
      if (port.port === undefined) continue;
      const key = servicePortKey({
        namespace: slice.metadata.namespace ?? "",
        name: svcName,
        port: port.name ?? "",
        protocol: port.protocol ?? "TCP",
      });
      let eps = byPort.get(key);
      if (eps === undefined) byPort.set(key, (eps = new Map()));
      for (const ep of slice.endpoints) {
        // Only the first address is used, as upstream does.
        const ip = ep.addresses[0];
        if (ip === undefined) continue;
        const ready = ep.conditions?.ready ?? true;
        const e = makeEndpoint({
          ip,
          port: port.port,
          isLocal: ep.nodeName !== undefined && ep.nodeName === nodeName,
          ready,
          serving: ep.conditions?.serving ?? true,
          terminating: ep.conditions?.terminating ?? false,
          zoneHints: hintNames(ep.hints?.forZones),
          nodeHints: hintNames(ep.hints?.forNodes),
        });
        eps.set(e.endpoint, e);
      }
    }
  }
  const out: EndpointsMap = new Map();
  for (const [key, eps] of byPort) if (eps.size > 0) out.set(key, [...eps.values()].sort(compareEndpoints));
  return out;
}
