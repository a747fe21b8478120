/**
 * Zones and their disruption state (pkg/controller/nodelifecycle: `ComputeZoneState`,
 * `HealthyQPSFunc`, `ReducedQPSFunc`; k8s.io/component-helpers/node/topology `GetZoneKey`).
 */
import type { Node, NodeCondition } from "@servicenet/api";

export type ZoneState = "Initial" | "Normal" | "FullDisruption" | "PartialDisruption";

/** `GetZoneKey`: region and zone labels joined by ":\x00:" ("" without either). */
export function getZoneKey(node: Node): string {
  const labels = node.metadata.labels ?? {};
  const region = labels["topology.kubernetes.io/region"] ?? labels["failure-domain.beta.kubernetes.io/region"] ?? "";
  const zone = labels["topology.kubernetes.io/zone"] ?? labels["failure-domain.beta.kubernetes.io/zone"] ?? "";
  if (region === "" && zone === "") return "";
  return `${region}:\x00:${zone}`;
}

/**
 * `ComputeZoneState`: no Ready Node is full disruption; more than two not Ready and at least
 * `unhealthyZoneThreshold` of them is partial. Returns the not-Ready count too.
 */
export function computeZoneState(conditions: readonly (NodeCondition | undefined)[], unhealthyZoneThreshold: number): [number, ZoneState] {
  const ready = conditions.filter((c) => c?.status === "True").length;
  const notReady = conditions.length - ready;
  if (ready === 0 && notReady > 0) return [notReady, "FullDisruption"];
  if (notReady > 2 && notReady / (notReady + ready) >= unhealthyZoneThreshold) return [notReady, "PartialDisruption"];
  return [notReady, "Normal"];
}

/** The eviction rates of the controller (--node-eviction-rate and the rest). */
export interface EvictionRates {
  evictionLimiterQPS: number;
  secondaryEvictionLimiterQPS: number;
  largeClusterThreshold: number;
}

/** `setLimiterInZone`'s choice: the healthy rate, the reduced one (0 in small clusters), or 0 for a fully disrupted zone. */
export function zoneQPS(state: ZoneState, zoneSize: number, r: EvictionRates): number {
  if (state === "Normal") return r.evictionLimiterQPS;
  // PartialDisruption: ReducedQPSFunc; FullDisruption: HealthyQPSFunc (all-zones-down is handled by the caller).
  if (state === "PartialDisruption") return zoneSize > r.largeClusterThreshold ? r.secondaryEvictionLimiterQPS : 0;
  return r.evictionLimiterQPS;
}
