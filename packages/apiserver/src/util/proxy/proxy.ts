/**
 * Where traffic for a Service goes (k8s.io/apiserver/pkg/util/proxy/proxy.go ResolveEndpoint and
 * ResolveCluster): one ready endpoint from the Service's EndpointSlices, the port mapped by the
 * Service port's name, or the ClusterIP (ExternalName's name) with the Service port. Failures are
 * upstream's errors, worded as upstream words them; callers put them after `Post "<url>": `.
 */
import { StatusError } from "@servicenet/api";
import type { Service, ServicePort } from "@servicenet/api/core/v1";
import { endpointSliceServiceNameLabel, type EndpointSlice } from "@servicenet/api/discovery/v1";

/** The host and port a request is sent to (an IP or a DNS name, without brackets). */
export interface ResolvedAddress {
  host: string;
  port: number;
}

/** Reads Services by namespace and name (a lister over the server's own informer). */
export type ServiceGetter = (namespace: string, name: string) => Service | undefined;
/** The EndpointSlices of a Service (proxy.go EndpointSliceGetter). */
export type EndpointSliceGetter = (namespace: string, serviceName: string) => EndpointSlice[];

/** The lister's NotFound for a Service (errors.NewNotFound(v1.Resource("service"), name)). */
function serviceNotFound(name: string): StatusError {
  return StatusError.notFound({ group: "", resource: "service" }, name);
}

/** findServicePort: the Service port numbered `port`. */
function findServicePort(svc: Service, port: number): ServicePort {
  const p = (svc.spec?.ports ?? []).find((sp) => sp.port === port);
  if (p === undefined) throw StatusError.serviceUnavailable(`no service port ${port} found for service "${svc.metadata.name ?? ""}"`);
  return p;
}

function serviceOf(services: ServiceGetter, namespace: string, id: string): Service {
  const svc = services(namespace, id);
  if (svc === undefined) throw serviceNotFound(id);
  return svc;
}

/** The primary family's slices first, each family's in random order (upstream's sort with rand.Perm). */
function orderSlices(slices: EndpointSlice[], svc: Service): EndpointSlice[] {
  const preferred = svc.spec?.ipFamilies?.[0];
  if (slices.length < 2 || preferred === undefined) return slices;
  const keyed = slices.map((s) => ({ s, r: Math.random() }));
  keyed.sort((a, b) => {
    if (a.s.addressType !== b.s.addressType) return a.s.addressType === preferred ? -1 : 1;
    return a.r - b.r;
  });
  return keyed.map((k) => k.s);
}

/**
 * ResolveEndpoint: a ready endpoint of a ClusterIP, NodePort or LoadBalancer Service, on the
 * endpoint port named as the Service port numbered `port`; throws upstream's error otherwise.
 */
export function resolveEndpoint(
  services: ServiceGetter,
  endpointSlices: EndpointSliceGetter,
  namespace: string,
  id: string,
  port: number,
): ResolvedAddress {
  const svc = serviceOf(services, namespace, id);
  const type = svc.spec?.type ?? "ClusterIP";
  if (type !== "ClusterIP" && type !== "LoadBalancer" && type !== "NodePort") throw new Error(`unsupported service type "${type}"`);
  const svcPort = findServicePort(svc, port);
  const name = svc.metadata.name ?? id;
  const slices = endpointSlices(namespace, name);
  if (slices.length === 0) throw StatusError.serviceUnavailable(`no endpoints available for service "${name}"`);
  for (const slice of orderSlices(slices, svc)) {
    const endpoints = slice.endpoints ?? [];
    for (const p of slice.ports ?? []) {
      if (p.name === undefined || p.name !== (svcPort.name ?? "") || p.port === undefined || endpoints.length === 0) continue;
      // From a random index, the first ready endpoint (an unknown readiness counts as ready).
      const offset = Math.floor(Math.random() * endpoints.length);
      for (let i = 0; i < endpoints.length; i++) {
        const ep = endpoints[(i + offset) % endpoints.length]!;
        if (ep.conditions?.ready === undefined || ep.conditions.ready === true) return { host: ep.addresses[0]!, port: p.port };
      }
    }
  }
  throw StatusError.serviceUnavailable(`no endpoints available for service "${id}"`);
}

/**
 * ResolveCluster: the ClusterIP and Service port, or an ExternalName's name with `port`; a
 * headless Service cannot be routed to.
 */
export function resolveCluster(services: ServiceGetter, namespace: string, id: string, port: number): ResolvedAddress {
  const svc = serviceOf(services, namespace, id);
  const type = svc.spec?.type ?? "ClusterIP";
  if (type === "ClusterIP" && svc.spec?.clusterIP === "None") throw new Error(`cannot route to service with ClusterIP "None"`);
  if (type === "ClusterIP" || type === "LoadBalancer" || type === "NodePort")
    return { host: svc.spec?.clusterIP ?? "", port: findServicePort(svc, port).port };
  if (type === "ExternalName") return { host: svc.spec?.externalName ?? "", port };
  throw new Error(`unsupported service type "${type}"`);
}

/** The EndpointSlices of `serviceName` among `slices` (by the kubernetes.io/service-name label). */
export function slicesOfService(slices: readonly EndpointSlice[], namespace: string, serviceName: string): EndpointSlice[] {
  return slices.filter((s) => s.metadata.namespace === namespace && s.metadata.labels?.[endpointSliceServiceNameLabel] === serviceName);
}
