/**
 * After upstream's staging/src/k8s.io/apiserver/pkg/util/proxy/proxy_test.go: TestResolve (cluster
 * and endpoint mode per Service shape, here with the error texts) and
 * TestResolveEndpointDistribution (which endpoints may be picked).
 */
import type { Service, ServicePort } from "@servicenet/api/core/v1";
import type { EndpointSlice, EndpointSliceEndpoint } from "@servicenet/api/discovery/v1";
import { describe, expect, it } from "vitest";
import { resolveCluster, resolveEndpoint, slicesOfService, type ResolvedAddress } from "./proxy.ts";

const url = (a: ResolvedAddress): string => `https://${a.host.includes(":") ? `[${a.host}]` : a.host}:${a.port}`;

function service(spec: NonNullable<Service["spec"]>, name = "alfa", namespace = "one"): Service {
  return { apiVersion: "v1", kind: "Service", metadata: { name, namespace }, spec };
}

function slice(
  svc: Service,
  suffix: string,
  ports: ServicePort[],
  endpoints: EndpointSliceEndpoint[],
  addressType = "IPv4",
): EndpointSlice {
  return {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: {
      name: `${svc.metadata.name}-${suffix}`,
      namespace: svc.metadata.namespace,
      labels: { "kubernetes.io/service-name": svc.metadata.name ?? "" },
    },
    addressType: addressType,
    endpoints,
    ports: ports.map((p) => ({ name: p.name ?? "", port: Number(p.targetPort) })),
  };
}

/** matchingEndpointSlices: one slice with 127.0.0.1 on every numeric targetPort. */
const matching = (svc: Service): EndpointSlice[] => [slice(svc, "xxx", svc.spec?.ports ?? [], [{ addresses: ["127.0.0.1"] }])];
const ports443: ServicePort[] = [
  { name: "https", port: 443, targetPort: 1443, protocol: "TCP" },
  { port: 1234, targetPort: 1234, protocol: "TCP" },
];

type Expectation = { url: string } | { error: string };

const resolveTests: {
  name: string;
  service?: Service;
  slices?: (svc: Service) => EndpointSlice[];
  clusterMode: Expectation;
  endpointMode: Expectation;
}[] = [
  {
    name: "cluster ip without 443 port",
    service: service({ type: "ClusterIP", clusterIP: "hit", ports: [{ port: 1234, targetPort: 1234, protocol: "TCP" }] }),
    slices: matching,
    clusterMode: { error: 'no service port 443 found for service "alfa"' },
    endpointMode: { error: 'no service port 443 found for service "alfa"' },
  },
  {
    name: "cluster ip",
    service: service({ type: "ClusterIP", clusterIP: "hit", ports: ports443 }),
    slices: matching,
    clusterMode: { url: "https://hit:443" },
    endpointMode: { url: "https://127.0.0.1:1443" },
  },
  {
    name: "cluster ip without endpointslices",
    service: service({ type: "ClusterIP", clusterIP: "hit", ports: ports443 }),
    clusterMode: { url: "https://hit:443" },
    endpointMode: { error: 'no endpoints available for service "alfa"' },
  },
  {
    name: "endpointslice without addresses",
    service: service({ type: "ClusterIP", clusterIP: "hit", ports: ports443 }),
    slices: (svc) => [slice(svc, "xxx", [], [])],
    clusterMode: { url: "https://hit:443" },
    endpointMode: { error: 'no endpoints available for service "alfa"' },
  },
  {
    name: "none cluster ip",
    service: service({ type: "ClusterIP", clusterIP: "None" }),
    clusterMode: { error: 'cannot route to service with ClusterIP "None"' },
    endpointMode: { error: 'no service port 443 found for service "alfa"' },
  },
  {
    name: "loadbalancer",
    service: service({ type: "LoadBalancer", clusterIP: "lb", ports: ports443 }),
    slices: matching,
    clusterMode: { url: "https://lb:443" },
    endpointMode: { url: "https://127.0.0.1:1443" },
  },
  {
    name: "node port",
    service: service({ type: "NodePort", clusterIP: "np", ports: ports443 }),
    slices: matching,
    clusterMode: { url: "https://np:443" },
    endpointMode: { url: "https://127.0.0.1:1443" },
  },
  {
    name: "external name",
    service: service({ type: "ExternalName", externalName: "foo.bar.com" }),
    clusterMode: { url: "https://foo.bar.com:443" },
    endpointMode: { error: 'unsupported service type "ExternalName"' },
  },
  {
    name: "unsupported service",
    service: service({ type: "unsupported" }),
    clusterMode: { error: 'unsupported service type "unsupported"' },
    endpointMode: { error: 'unsupported service type "unsupported"' },
  },
  {
    name: "missing service",
    clusterMode: { error: 'service "alfa" not found' },
    endpointMode: { error: 'service "alfa" not found' },
  },
];

describe("TestResolve", () => {
  it.each(resolveTests)("$name", (t) => {
    const services = (ns: string, n: string): Service | undefined =>
      t.service?.metadata.namespace === ns && t.service.metadata.name === n ? t.service : undefined;
    const all = t.service && t.slices ? t.slices(t.service) : [];
    const check = (expected: Expectation, run: () => ResolvedAddress): void => {
      if ("error" in expected) expect(run).toThrow(expected.error);
      else expect(url(run())).toBe(expected.url);
    };
    check(t.clusterMode, () => resolveCluster(services, "one", "alfa", 443));
    check(t.endpointMode, () => resolveEndpoint(services, (ns, svc) => slicesOfService(all, ns, svc), "one", "alfa", 443));
  });
});

const httpsPort: ServicePort = { name: "https", port: 443, targetPort: 443, protocol: "TCP" };
const wrongPort: ServicePort = { name: "http", port: 80, targetPort: 443, protocol: "TCP" };
const singleStack = service({ type: "ClusterIP", ipFamilies: ["IPv4"], ports: [httpsPort] }, "single-stack", "test");
const dualStack = service({ type: "ClusterIP", ipFamilies: ["IPv4", "IPv6"], ports: [httpsPort] }, "dual-stack", "test");
const ep = (address: string, ready?: boolean): EndpointSliceEndpoint => ({
  addresses: [address],
  conditions: ready === undefined ? {} : { ready },
});

const distributionTests: { name: string; service: Service; slices: EndpointSlice[]; expectedURLs: string[] }[] = [
  {
    name: "simple",
    service: singleStack,
    slices: [slice(singleStack, "1", [httpsPort], [ep("10.0.0.1")]), slice(singleStack, "2", [httpsPort], [ep("10.0.0.2")])],
    expectedURLs: ["https://10.0.0.1:443", "https://10.0.0.2:443"],
  },
  {
    name: "multiple endpoints, some non-ready",
    service: singleStack,
    slices: [
      slice(singleStack, "1", [httpsPort], [ep("10.0.0.1"), ep("10.0.0.2", false), ep("10.0.0.3", true)]),
      slice(singleStack, "2", [httpsPort], [ep("10.0.0.4", true)]),
      slice(singleStack, "3", [httpsPort], [ep("10.0.0.5", false), ep("10.0.0.6", false)]),
    ],
    expectedURLs: ["https://10.0.0.1:443", "https://10.0.0.3:443", "https://10.0.0.4:443"],
  },
  {
    name: "dual-stack, primary-family endpoints ready",
    service: dualStack,
    slices: [
      slice(dualStack, "v6", [httpsPort], [ep("fd00::1", true), ep("fd00::2", true)], "IPv6"),
      slice(dualStack, "v4", [httpsPort], [ep("10.0.0.1", true), ep("10.0.0.2", true)]),
    ],
    expectedURLs: ["https://10.0.0.1:443", "https://10.0.0.2:443"],
  },
  {
    name: "dual-stack, primary-family endpoints non-ready",
    service: dualStack,
    slices: [
      slice(dualStack, "v4", [httpsPort], [ep("10.0.0.1", false), ep("10.0.0.2", false)]),
      slice(dualStack, "v6", [httpsPort], [ep("fd00::1", true), ep("fd00::2", true)], "IPv6"),
    ],
    expectedURLs: ["https://[fd00::1]:443", "https://[fd00::2]:443"],
  },
  {
    name: "many slices, many endpoints, most unusable",
    service: dualStack,
    slices: [
      slice(dualStack, "v4-1", [httpsPort], [ep("10.0.0.1", false)]),
      slice(dualStack, "v6-1", [httpsPort], [ep("fd00::1", true), ep("fd00::2", true)], "IPv6"),
      slice(dualStack, "v4-2", [httpsPort], []),
      slice(dualStack, "v4-3", [httpsPort], [ep("10.0.0.2", true)]),
      slice(dualStack, "v4-4", [wrongPort], [ep("10.0.0.3", true)]),
    ],
    expectedURLs: ["https://10.0.0.2:443"],
  },
];

describe("TestResolveEndpointDistribution", () => {
  it.each(distributionTests)("$name", (t) => {
    const services = (): Service => t.service;
    const got = new Set<string>();
    // Upstream's check: over many picks every expected endpoint shows up, and nothing else.
    for (let i = 0; i < 100; i++)
      got.add(url(resolveEndpoint(services, (ns, svc) => slicesOfService(t.slices, ns, svc), "test", t.service.metadata.name ?? "", 443)));
    expect([...got].sort()).toEqual([...t.expectedURLs].sort());
  });
});
