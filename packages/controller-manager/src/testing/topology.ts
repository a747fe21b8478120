/** Builders for the topology-hint tests (upstream's literal EndpointSlices and Nodes). */
import type { EndpointSlice, EndpointSliceEndpoint, Node } from "@servicenet/api";
import { labelTopologyZone } from "../endpointslice/utils.ts";

/** An endpoint: address, zone, ready (undefined: no Ready condition), hinted zones. */
export function ep(address: string, zone: string | undefined, ready: boolean | undefined, hints?: string[]): EndpointSliceEndpoint {
  return {
    addresses: [address],
    ...(zone !== undefined ? { zone } : {}),
    conditions: ready === undefined ? {} : { ready },
    ...(hints !== undefined ? { hints: { forZones: hints.map((name) => ({ name })) } } : {}),
  };
}

/** A slice holding `endpoints`. */
export function slice(...endpoints: EndpointSliceEndpoint[]): EndpointSlice {
  return { metadata: {}, addressType: "IPv4", endpoints };
}

/** A Node in `zone` with `cpu` allocatable and the Ready condition `ready`. */
export function node(zone: string, cpu: string, ready: "True" | "False", labels: Record<string, string> = {}): Node {
  return {
    metadata: { labels: { ...labels, ...(zone !== "" ? { [labelTopologyZone]: zone } : {}) } },
    spec: {},
    status: { allocatable: { cpu }, conditions: [{ type: "Ready", status: ready }] },
  };
}

/** Nodes whose allocatable CPU splits as `ratios` (milli-CPU per zone, one Node each). */
export function nodesWithCPU(milliByZone: Record<string, number>): Node[] {
  return Object.entries(milliByZone).map(([zone, m]) => node(zone, `${m}m`, "True"));
}
