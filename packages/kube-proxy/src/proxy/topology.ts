/** `proxy.CategorizeEndpoints` (pkg/proxy/topology.go), without topology-aware hints. */
import { compareEndpoints } from "./endpoint.ts";
import type { Endpoint } from "./endpoint.ts";
import { usesClusterEndpoints, usesLocalEndpoints } from "./service-port.ts";
import type { ServicePortInfo } from "./service-port.ts";

export interface CategorizedEndpoints {
  /** Endpoints for the Cluster traffic policy. */
  readonly clusterEndpoints: readonly Endpoint[];
  /** Endpoints for the Local traffic policy. */
  readonly localEndpoints: readonly Endpoint[];
  /** Union of both: the endpoints that need an endpoint chain. */
  readonly allReachableEndpoints: readonly Endpoint[];
  /** The Service has usable endpoints somewhere in the cluster. */
  readonly hasAnyEndpoints: boolean;
}

const none: readonly Endpoint[] = [];

/**
 * Splits a Service port's endpoints by traffic policy. Ready endpoints are
 * preferred; serving-and-terminating ones are the fallback so that draining
 * pods keep taking traffic when nothing else can.
 */
export function categorizeEndpoints(endpoints: readonly Endpoint[], svc: ServicePortInfo): CategorizedEndpoints {
  let clusterEndpoints: readonly Endpoint[] = none;
  let hasAnyEndpoints = false;
  const cluster = usesClusterEndpoints(svc);
  if (cluster) {
    clusterEndpoints = endpoints.filter((ep) => ep.ready);
    if (clusterEndpoints.length === 0) clusterEndpoints = endpoints.filter((ep) => ep.serving && ep.terminating);
    hasAnyEndpoints = clusterEndpoints.length > 0;
  }
  if (!usesLocalEndpoints(svc)) {
    return { clusterEndpoints, localEndpoints: none, allReachableEndpoints: clusterEndpoints, hasAnyEndpoints };
  }
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
  if (hasLocalReady) localEndpoints = endpoints.filter((ep) => ep.isLocal && ep.ready);
  else if (hasLocalServingTerminating) localEndpoints = endpoints.filter((ep) => ep.isLocal && ep.serving && ep.terminating);
  if (!cluster) return { clusterEndpoints, localEndpoints, allReachableEndpoints: localEndpoints, hasAnyEndpoints };
  return { clusterEndpoints, localEndpoints, allReachableEndpoints: union(clusterEndpoints, localEndpoints), hasAnyEndpoints };
}

/** Union by String(); upstream iterates a Go map here, we sort to stay deterministic. */
function union(a: readonly Endpoint[], b: readonly Endpoint[]): readonly Endpoint[] {
  if (b.length === 0) return a;
  const byName = new Map<string, Endpoint>();
  for (const ep of a) byName.set(ep.endpoint, ep);
  for (const ep of b) byName.set(ep.endpoint, ep);
  return [...byName.values()].sort(compareEndpoints);
}
