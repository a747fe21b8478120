/**
 * `proxy.CategorizeEndpoints` (pkg/proxy/topology.go, Kubernetes 1.33): which
 * endpoints each traffic policy of a Service port uses on this node, taking
 * topology hints into account for the Cluster policy.
 */
import { compareEndpoints } from "./endpoint.ts";
import type { Endpoint } from "./endpoint.ts";
import { usesClusterEndpoints, usesLocalEndpoints } from "./service-port.ts";
import type { ServicePortInfo } from "./service-port.ts";

/** `v1.LabelTopologyZone`. */
export const labelTopologyZone = "topology.kubernetes.io/zone";

/** What topology filtering needs to know about this node. */
export interface TopologyContext {
  readonly nodeName: string;
  /** The node's `topology.kubernetes.io/zone` label ("" when absent). */
  readonly zone: string;
  /** Feature gate PreferSameTrafficDistribution (alpha, off by default in 1.33): honour `forNodes` hints. */
  readonly preferSameTrafficDistribution: boolean;
}

/** `""` (no topology), `PreferSameZone` or `PreferSameNode`. */
export type TopologyMode = "" | "PreferSameZone" | "PreferSameNode";

export interface CategorizedEndpoints {
  /** Endpoints for the Cluster traffic policy; null when the port never uses it. */
  readonly clusterEndpoints: readonly Endpoint[] | null;
  /** Endpoints for the Local traffic policy; null when the port never uses it. */
  readonly localEndpoints: readonly Endpoint[] | null;
  /** Union of both: the endpoints that need an endpoint chain. */
  readonly allReachableEndpoints: readonly Endpoint[];
  /** The Service has usable endpoints somewhere in the cluster (even if none is reachable from here). */
  readonly hasAnyEndpoints: boolean;
}

const none: readonly Endpoint[] = Object.freeze([]);

/**
 * Splits a Service port's endpoints by traffic policy. Ready endpoints are
 * preferred; serving-and-terminating ones are the fallback (independently for
 * Cluster and Local) so that draining pods keep taking traffic when nothing
 * else can. Hints narrow the Cluster endpoints only, never the Local ones.
 */
export function categorizeEndpoints(endpoints: readonly Endpoint[], svc: ServicePortInfo, topo: TopologyContext): CategorizedEndpoints {
  if (endpoints.length === 0) return { clusterEndpoints: null, localEndpoints: null, allReachableEndpoints: none, hasAnyEndpoints: false };
  let clusterEndpoints: readonly Endpoint[] | null = null;
  let hasAnyEndpoints = false;
  let mode: TopologyMode = "";
  if (usesClusterEndpoints(svc)) {
    mode = topologyModeFromHints(endpoints, topo);
    clusterEndpoints = endpoints.filter((ep) => ep.ready && availableForTopology(ep, mode, topo));
    // Topology already fell back when no ready endpoint fits it: none ready anywhere.
    if (clusterEndpoints.length === 0) clusterEndpoints = endpoints.filter((ep) => ep.serving && ep.terminating);
    hasAnyEndpoints = clusterEndpoints.length > 0;
  }
  if (!usesLocalEndpoints(svc))
    return { clusterEndpoints, localEndpoints: null, allReachableEndpoints: clusterEndpoints ?? none, hasAnyEndpoints };

  let hasLocalReady = false;
  let hasLocalServingTerminating = false;
  for (const ep of endpoints) {
    if (ep.ready) {
      hasAnyEndpoints = true;
      if (ep.isLocal) hasLocalReady = true;
    } else if (ep.serving && ep.terminating) {
      hasAnyEndpoints = true;
      if (ep.isLocal) hasLocalServingTerminating = true;
    }
  }
  let localEndpoints: readonly Endpoint[] = none;
  const useServingTerminating = !hasLocalReady && hasLocalServingTerminating;
  if (hasLocalReady) localEndpoints = endpoints.filter((ep) => ep.isLocal && ep.ready);
  else if (useServingTerminating) localEndpoints = endpoints.filter((ep) => ep.isLocal && ep.serving && ep.terminating);
  if (clusterEndpoints === null) return { clusterEndpoints, localEndpoints, allReachableEndpoints: localEndpoints, hasAnyEndpoints };
  // Without topology and with Ready local endpoints only, Cluster holds every Ready endpoint: a superset.
  if (mode === "" && !useServingTerminating)
    return { clusterEndpoints, localEndpoints, allReachableEndpoints: clusterEndpoints, hasAnyEndpoints };
  return { clusterEndpoints, localEndpoints, allReachableEndpoints: union(clusterEndpoints, localEndpoints), hasAnyEndpoints };
}

/**
 * `topologyModeFromHints`: PreferSameNode when the gate is on, every ready
 * endpoint has a node hint and one is for this node; else PreferSameZone when
 * every ready endpoint has a zone hint and one is for this node's zone; else "".
 */
export function topologyModeFromHints(endpoints: readonly Endpoint[], topo: TopologyContext): TopologyMode {
  let hasReady = false;
  let hasForNode = false;
  let allHaveNodeHints = true;
  let hasForZone = false;
  let allHaveZoneHints = true;
  for (const ep of endpoints) {
    if (!ep.ready) continue;
    hasReady = true;
    if (ep.nodeHints.length === 0) allHaveNodeHints = false;
    else if (ep.nodeHints.includes(topo.nodeName)) hasForNode = true;
    if (ep.zoneHints.length === 0) allHaveZoneHints = false;
    else if (ep.zoneHints.includes(topo.zone)) hasForZone = true;
  }
  if (!hasReady) return "";
  if (topo.preferSameTrafficDistribution && allHaveNodeHints && hasForNode) return "PreferSameNode";
  if (allHaveZoneHints && hasForZone) return "PreferSameZone";
  return "";
}

/** `availableForTopology`: the endpoint may serve this node in `mode` (no fallback here). */
export function availableForTopology(ep: Endpoint, mode: TopologyMode, topo: TopologyContext): boolean {
  if (mode === "") return true;
  if (mode === "PreferSameNode") return ep.nodeHints.includes(topo.nodeName);
  return ep.zoneHints.includes(topo.zone);
}

/** Union by String(); upstream iterates a Go map here, we sort to stay deterministic. */
function union(a: readonly Endpoint[], b: readonly Endpoint[]): readonly Endpoint[] {
  if (b.length === 0) return a;
  const byName = new Map<string, Endpoint>();
  for (const ep of a) byName.set(ep.endpoint, ep);
  for (const ep of b) byName.set(ep.endpoint, ep);
  return [...byName.values()].sort(compareEndpoints);
}
