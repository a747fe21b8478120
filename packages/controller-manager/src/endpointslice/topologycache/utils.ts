/** Helpers of the topology cache (staging/src/k8s.io/endpointslice/topologycache/utils.go). */
import type { EndpointSlice, EndpointSliceEndpoint, Node } from "@servicenet/api";
import { endpointReady } from "../trafficdist/trafficdist.ts";

export { endpointReady };

/** `overloadThreshold`: the most any endpoint may be overloaded by an allocation. */
export const overloadThreshold = 0.2;

/** How many endpoints a zone should get (`allocation`). */
export interface Allocation {
  minimum: number;
  maximum: number;
  desired: number;
}

/** The endpoint without hints (a new object; endpoints may be shared with the informer's cache). */
export function withoutHints(ep: EndpointSliceEndpoint): EndpointSliceEndpoint {
  const { hints: _h, ...rest } = ep;
  return rest;
}

/** The endpoint hinted for exactly `zone`. */
export function hintedFor(ep: EndpointSliceEndpoint, zone: string): EndpointSliceEndpoint {
  return { ...ep, hints: { forZones: [{ name: zone }] } };
}

/**
 * `redistributeHints`: moves hints of endpoints in giving zones to receiving
 * zones; returns the change in allocated endpoints per zone.
 */
export function redistributeHints(
  slices: readonly EndpointSlice[],
  giving: Map<string, number>,
  receiving: Map<string, number>,
): Map<string, number> {
  const redistributions = new Map<string, number>();
  const add = (zone: string, d: number) => redistributions.set(zone, (redistributions.get(zone) ?? 0) + d);
  for (const slice of slices) {
    for (let i = 0; i < slice.endpoints.length; i++) {
      const ep = slice.endpoints[i]!;
      if (!endpointReady(ep)) continue;
      if (giving.size === 0 || receiving.size === 0) return redistributions;
      const givingZone = ep.zone;
      if (givingZone === undefined || givingZone === "") continue;
      const numToGive = giving.get(givingZone) ?? 0;
      if (numToGive <= 0) continue;
      for (const [receivingZone, numToReceive] of receiving) {
        if (numToReceive <= 0) continue;
        slice.endpoints[i] = hintedFor(ep, receivingZone);
        if (numToGive === 1) giving.delete(givingZone);
        else giving.set(givingZone, numToGive - 1);
        if (numToReceive === 1) receiving.delete(receivingZone);
        else receiving.set(receivingZone, numToReceive - 1);
        add(receivingZone, 1);
        add(givingZone, -1);
        break;
      }
    }
  }
  return redistributions;
}

/**
 * `getGivingAndReceivingZones`: whole endpoints each zone should give away or
 * receive, from the desired allocations and the hints allocated so far.
 */
export function getGivingAndReceivingZones(
  allocations: ReadonlyMap<string, Allocation>,
  allocated: ReadonlyMap<string, number>,
): { giving: Map<string, number>; receiving: Map<string, number> } {
  const givingDesired = new Map<string, number>();
  const receivingDesired = new Map<string, number>();
  for (const [zone, a] of allocations) {
    const hints = allocated.get(zone) ?? 0;
    if (hints > a.desired) givingDesired.set(zone, hints - a.desired);
    else if (hints < a.desired) receivingDesired.set(zone, a.desired - hints);
  }
  const giving = new Map<string, number>();
  const receiving = new Map<string, number>();
  for (;;) {
    const [gz, toGive] = getMost(givingDesired);
    const [rz, toReceive] = getMost(receivingDesired);
    if (gz === "" || rz === "" || (toGive < 1 && toReceive < 1) || toGive < 0.5 || toReceive < 0.5) break;
    giving.set(gz, (giving.get(gz) ?? 0) + 1);
    givingDesired.set(gz, toGive - 1);
    receiving.set(rz, (receiving.get(rz) ?? 0) + 1);
    receivingDesired.set(rz, toReceive - 1);
  }
  return { giving, receiving };
}

/** `getMost`: the zone with the greatest value ("" and 0 when none is positive). */
export function getMost(zones: ReadonlyMap<string, number>): [string, number] {
  let zone = "";
  let num = 0;
  for (const [z, n] of zones) {
    if (n > num) {
      zone = z;
      num = n;
    }
  }
  return [zone, num];
}

/**
 * `getHintsByZone`: the hints a slice holds per zone, or null when the slice
 * needs an update (an endpoint without hints, a zone without allocation, a
 * zone's maximum exceeded).
 */
export function getHintsByZone(
  slice: EndpointSlice,
  allocated: ReadonlyMap<string, number>,
  allocations: ReadonlyMap<string, Allocation>,
): Map<string, number> | null {
  const byZone = new Map<string, number>();
  for (const ep of slice.endpoints) {
    if (!endpointReady(ep)) continue;
    const zones = ep.hints?.forZones ?? [];
    if (zones.length === 0) return null;
    for (const { name } of zones) {
      if (!allocations.has(name)) return null;
      byZone.set(name, (byZone.get(name) ?? 0) + 1);
    }
  }
  for (const [zone, n] of byZone) {
    const a = allocations.get(zone);
    if (a === undefined || n + (allocated.get(zone) ?? 0) > a.maximum) return null;
  }
  return byZone;
}

/** `serviceOverloaded`: some zone has fewer hinted endpoints than its minimum. */
export function serviceOverloaded(ezi: ReadonlyMap<string, number>, zoneRatios: ReadonlyMap<string, number>): boolean {
  if (ezi.size === 0) return false;
  if (zoneRatios.size === 0) return true;
  let total = 0;
  for (const n of ezi.values()) total += n;
  for (const [zone, ratio] of zoneRatios) {
    const n = ezi.get(zone);
    if (n === undefined) return true;
    if (n < Math.ceil(total * ratio * (1 / (1 + overloadThreshold)))) return true;
  }
  return false;
}

/** `isNodeReady`: the Ready condition is True. */
export function isNodeReady(node: Node): boolean {
  const c = (node.status?.conditions ?? []).find((x) => x.type === "Ready");
  return c?.status === "True";
}

/** `numReadyEndpoints`. */
export function numReadyEndpoints(endpoints: readonly EndpointSliceEndpoint[]): number {
  let n = 0;
  for (const ep of endpoints) if (endpointReady(ep)) n++;
  return n;
}
