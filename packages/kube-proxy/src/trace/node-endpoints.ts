/**
 * A node's view of every Service port: the endpoints its kube-proxy programs
 * for each traffic policy after topology and policy filtering, computed as the
 * proxiers compute them (the EndpointSliceCache's endpoints, then
 * CategorizeEndpoints of pkg/proxy/topology.go). The dataplane page shows it.
 */
import type { EndpointSlice, IPFamily, Service } from "@servicenet/api";
import type { Endpoint } from "../proxy/endpoint.ts";
import {
  externallyAccessible,
  getClusterIPByFamily,
  newServicePortInfo,
  shouldSkipService,
  usesClusterEndpoints,
} from "../proxy/service-port.ts";
import { servicePortKey } from "../proxy/service-port-name.ts";
import { categorizeEndpoints, topologyModeFromHints } from "../proxy/topology.ts";
import type { TopologyContext, TopologyMode } from "../proxy/topology.ts";
import { endpointSliceKeys, endpointsFromSlices } from "../tracker/endpoint-slice-data.ts";

/** One Service port of one family as a node's kube-proxy sees it. */
export interface NodeServicePort {
  readonly namespace: string;
  readonly name: string;
  /** The Service port's name ("" for an unnamed port). */
  readonly port: string;
  readonly protocol: string;
  readonly family: IPFamily;
  readonly clusterIP: string;
  readonly servicePort: number;
  readonly nodePort: number;
  readonly internalTrafficPolicy: "Cluster" | "Local";
  /** Null when the port is not externally accessible (no NodePort, external IP or LoadBalancer IP). */
  readonly externalTrafficPolicy: "Cluster" | "Local" | null;
  /** The topology mode hints put this node in ("" when hints are ignored or absent). */
  readonly topologyMode: TopologyMode;
  /** Every endpoint of the port, as the EndpointSlices list it. */
  readonly endpoints: readonly Endpoint[];
  /** What ClusterIP traffic from this node reaches (internalTrafficPolicy applied). */
  readonly internalEndpoints: readonly Endpoint[];
  /** What NodePort, external IP and LoadBalancer traffic reaches (externalTrafficPolicy applied); null when not externally accessible. */
  readonly externalEndpoints: readonly Endpoint[] | null;
  /** The Service has usable endpoints on some node (else its traffic is rejected, not dropped). */
  readonly hasAnyEndpoints: boolean;
}

export interface NodeEndpointsInput {
  readonly topology: TopologyContext;
  readonly families: readonly IPFamily[];
  readonly services: readonly Service[];
  readonly slices: readonly EndpointSlice[];
}

/** Every proxied Service port of `input.families` with the endpoints `input.topology.nodeName`'s kube-proxy uses. */
export function nodeServiceEndpoints(input: NodeEndpointsInput): NodeServicePort[] {
  const out: NodeServicePort[] = [];
  for (const family of input.families) {
    const bySvc = new Map<string, EndpointSlice[]>();
    for (const s of input.slices) {
      const keys = s.addressType === family ? endpointSliceKeys(s) : null;
      if (keys === null) continue;
      const list = bySvc.get(keys.service) ?? [];
      list.push(s);
      bySvc.set(keys.service, list);
    }
    for (const svc of input.services) {
      const clusterIP = getClusterIPByFamily(family, svc);
      if (shouldSkipService(svc) || clusterIP === "") continue;
      const ns = svc.metadata.namespace ?? "";
      const name = svc.metadata.name ?? "";
      const eps = endpointsFromSlices(bySvc.get(`${ns}/${name}`) ?? [], input.topology.nodeName);
      for (const p of svc.spec.ports ?? []) {
        const info = newServicePortInfo(svc, family, clusterIP, p);
        const all = eps.get(servicePortKey(info.name)) ?? [];
        const c = categorizeEndpoints(all, info, input.topology);
        const ofPolicy = (local: boolean): readonly Endpoint[] => (local ? c.localEndpoints : c.clusterEndpoints) ?? [];
        const external = externallyAccessible(info);
        out.push({
          namespace: ns,
          name,
          port: info.name.port,
          protocol: info.protocol,
          family,
          clusterIP: info.clusterIP,
          servicePort: info.port,
          nodePort: info.nodePort,
          internalTrafficPolicy: info.internalPolicyLocal ? "Local" : "Cluster",
          externalTrafficPolicy: external ? (info.externalPolicyLocal ? "Local" : "Cluster") : null,
          topologyMode: usesClusterEndpoints(info) ? topologyModeFromHints(all, input.topology) : "",
          endpoints: all,
          internalEndpoints: ofPolicy(info.internalPolicyLocal),
          externalEndpoints: external ? ofPolicy(info.externalPolicyLocal) : null,
          hasAnyEndpoints: c.hasAnyEndpoints,
        });
      }
    }
  }
  return out;
}
