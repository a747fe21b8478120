/** Builders for Services and EndpointSlices in tests (upstream's makeTestService / makeTestEndpointSlice). */
import type { EndpointSlice, Service } from "@servicenet/api";

/** A ClusterIP Service `ns/name`, modified by `fn`. */
export function makeTestService(ns: string, name: string, fn: (svc: Service) => void): Service {
  const svc: Service = {
    metadata: { namespace: ns, name, annotations: {} },
    spec: {},
    status: {},
  };
  fn(svc);
  return svc;
}

/** The EndpointSlice `<name>-<n>` of Service `ns/name`, modified by `fn`. */
export function makeTestEndpointSlice(ns: string, name: string, n: number, fn: (s: EndpointSlice) => void): EndpointSlice {
  const slice: EndpointSlice = {
    metadata: { namespace: ns, name: `${name}-${n}`, labels: { "kubernetes.io/service-name": name } },
    addressType: "IPv4",
    endpoints: [],
  };
  fn(slice);
  return slice;
}

/** A TCP slice port. */
export function tcpPort(name: string, port: number): NonNullable<EndpointSlice["ports"]>[number] {
  return { name, port, protocol: "TCP" };
}
