/**
 * Versioned defaulting of core/v1 (pkg/apis/core/v1/defaults.go). It runs on
 * decode, before the registry. It deliberately does NOT touch ipFamilyPolicy,
 * ipFamilies or clusterIPs: dual-stack defaulting depends on the cluster and
 * happens in the registry (pkg/registry/core/service/storage/alloc.go initIPFamilyFields).
 */
import {
  defaultClientIPServiceAffinitySeconds,
  finalizerKubernetes,
  loadBalancerIPModes,
  namespacePhases,
  protocols,
  serviceAffinities,
  serviceExternalTrafficPolicies,
  serviceInternalTrafficPolicies,
  serviceTypes,
} from "./constants.ts";
import type { Endpoints } from "./endpoints.ts";
import type { Namespace } from "./namespace.ts";
import type { Pod } from "./pod.ts";
import { setDefaultsPodSpec } from "./pod-defaults.ts";
import type { Service, ServiceSpec } from "./service.ts";

/** Feature gates that change defaulting; passed in, never read from globals. */
export interface DefaultingGates {
  /** LoadBalancerIPMode (GA, on by default): default `status.loadBalancer.ingress[].ipMode` to VIP. */
  loadBalancerIPMode?: boolean;
}

/** `service.ExternallyAccessible`: NodePort, LoadBalancer, or ClusterIP with externalIPs. */
export function externallyAccessible(spec: ServiceSpec): boolean {
  return (
    spec.type === serviceTypes.LoadBalancer ||
    spec.type === serviceTypes.NodePort ||
    (spec.type === serviceTypes.ClusterIP && (spec.externalIPs?.length ?? 0) > 0)
  );
}

/** `service.NeedsHealthCheck`: LoadBalancer with externalTrafficPolicy Local. */
export function needsHealthCheck(spec: ServiceSpec): boolean {
  return spec.type === serviceTypes.LoadBalancer && spec.externalTrafficPolicy === serviceExternalTrafficPolicies.Local;
}

function defaultSessionAffinity(spec: ServiceSpec): void {
  if (!spec.sessionAffinity) spec.sessionAffinity = serviceAffinities.None;
  if (spec.sessionAffinity === serviceAffinities.None) delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === serviceAffinities.ClientIP && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: defaultClientIPServiceAffinitySeconds } };
  }
}

/**
 * `SetDefaults_Service`, in upstream order; mutates and returns `svc`:
 * sessionAffinity None (config dropped) or ClientIP with a 10800 s timeout;
 * type ClusterIP; each port's protocol TCP and targetPort = port when it is
 * 0/""/absent; externalTrafficPolicy Cluster when externally accessible;
 * internalTrafficPolicy Cluster for ClusterIP/NodePort/LoadBalancer;
 * allocateLoadBalancerNodePorts true and ingress ipMode VIP for LoadBalancer.
 */
export function setDefaultsService(svc: Service, gates: DefaultingGates = {}): Service {
  const spec = svc.spec;
  defaultSessionAffinity(spec);
  if (!spec.type) spec.type = serviceTypes.ClusterIP;
  for (const p of spec.ports ?? []) {
    if (!p.protocol) p.protocol = protocols.TCP;
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === "") p.targetPort = p.port;
  }
  if (externallyAccessible(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = serviceExternalTrafficPolicies.Cluster;
  if (
    spec.internalTrafficPolicy === undefined &&
    [serviceTypes.NodePort, serviceTypes.LoadBalancer, serviceTypes.ClusterIP].includes(spec.type as never)
  ) {
    spec.internalTrafficPolicy = serviceInternalTrafficPolicies.Cluster;
  }
  if (spec.type === serviceTypes.LoadBalancer) {
    if (spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
    if (gates.loadBalancerIPMode ?? true) {
      for (const ing of svc.status?.loadBalancer?.ingress ?? [])
        if (ing.ip && ing.ipMode === undefined) ing.ipMode = loadBalancerIPModes.VIP;
    }
  }
  return svc;
}

/**
 * `SetDefaults_Pod`: the PodSpec's defaults (`setDefaultsPodSpec`), enableServiceLinks true, and
 * with hostNetwork, hostPort = containerPort (`defaultHostNetworkPorts`). Mutates and returns `pod`.
 */
export function setDefaultsPod(pod: Pod): Pod {
  setDefaultsPodSpec(pod.spec);
  (pod.spec as Record<string, unknown>)["enableServiceLinks"] ??= true;
  if (pod.spec.hostNetwork === true)
    for (const c of pod.spec.containers) for (const p of c.ports ?? []) if ((p.hostPort ?? 0) === 0) p.hostPort = p.containerPort;
  return pod;
}

/** `SetDefaults_EndpointPort`: protocol TCP. Mutates and returns `ep`. */
export function setDefaultsEndpoints(ep: Endpoints): Endpoints {
  for (const s of ep.subsets ?? []) for (const p of s.ports ?? []) if (!p.protocol) p.protocol = protocols.TCP;
  return ep;
}

/** Label every named Namespace carries (`kubernetes.io/metadata.name`). */
export const labelMetadataName = "kubernetes.io/metadata.name";

/**
 * `SetDefaults_Namespace` + `SetDefaults_NamespaceStatus`: the
 * `kubernetes.io/metadata.name` label (only once a name exists) and phase
 * Active. `spec.finalizers: [kubernetes]` is set by the registry on create,
 * not here; see `namespaceCreateFinalizers`.
 */
export function setDefaultsNamespace(ns: Namespace): Namespace {
  const name = ns.metadata.name ?? "";
  if (name.length > 0) ns.metadata.labels = { ...ns.metadata.labels, [labelMetadataName]: name };
  ns.status = { ...ns.status, phase: ns.status?.phase || namespacePhases.Active };
  return ns;
}

/** Finalizers the namespace registry strategy sets on create (PrepareForCreate). */
export const namespaceCreateFinalizers: readonly string[] = [finalizerKubernetes];
