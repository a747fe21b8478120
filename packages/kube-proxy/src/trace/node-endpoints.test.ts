/** nodeServiceEndpoints: per node, the endpoints each traffic policy uses after hints and policies. */
import type { EndpointSlice, Service } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { nodeServiceEndpoints } from "./node-endpoints.ts";

const svc = (name: string, spec: Partial<Service["spec"]>): Service => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { namespace: "default", name },
  spec: {
    type: "ClusterIP",
    clusterIP: "10.96.0.10",
    clusterIPs: ["10.96.0.10", "fd00::a"],
    ipFamilies: ["IPv4", "IPv6"],
    ports: [{ name: "http", port: 80, protocol: "TCP" }],
    ...spec,
  },
});

const ep = (ip: string, node: string, zone: string, ready = true) => ({
  addresses: [ip],
  nodeName: node,
  zone,
  conditions: { ready, serving: ready, terminating: false },
  hints: { forZones: [{ name: zone }] },
});

const slice = (service: string, family: "IPv4" | "IPv6", endpoints: EndpointSlice["endpoints"]): EndpointSlice => ({
  apiVersion: "discovery.k8s.io/v1",
  kind: "EndpointSlice",
  metadata: { namespace: "default", name: `${service}-${family}`, labels: { "kubernetes.io/service-name": service } },
  addressType: family,
  endpoints,
  ports: [{ name: "http", port: 8080, protocol: "TCP" }],
});

const slices = [
  slice("zoned", "IPv4", [ep("10.0.1.1", "a", "z1"), ep("10.0.2.1", "b", "z2")]),
  slice("local", "IPv4", [ep("10.0.2.2", "b", "z2")]),
  slice("local", "IPv6", [ep("fd00:2::2", "b", "z2")]),
];
const services = [
  svc("zoned", { trafficDistribution: "PreferClose" }),
  svc("local", { type: "NodePort", externalTrafficPolicy: "Local", ports: [{ name: "http", port: 80, protocol: "TCP", nodePort: 30080 }] }),
  svc("headless", { clusterIP: "None", clusterIPs: ["None"] }),
];

function view(nodeName: string, zone: string) {
  return nodeServiceEndpoints({
    topology: { nodeName, zone, preferSameTrafficDistribution: false },
    families: ["IPv4", "IPv6"],
    services,
    slices,
  }).map((p) => ({
    svc: `${p.name}/${p.family}`,
    mode: p.topologyMode,
    internal: p.internalEndpoints.map((e) => e.endpoint),
    external: p.externalEndpoints?.map((e) => e.endpoint) ?? null,
    any: p.hasAnyEndpoints,
  }));
}

describe("nodeServiceEndpoints", () => {
  it("zone hints narrow the Cluster endpoints to the node's zone; Local keeps only the node's own", () => {
    expect(view("a", "z1")).toEqual([
      { svc: "zoned/IPv4", mode: "PreferSameZone", internal: ["10.0.1.1:8080"], external: null, any: true },
      { svc: "local/IPv4", mode: "", internal: ["10.0.2.2:8080"], external: [], any: true },
      { svc: "zoned/IPv6", mode: "", internal: [], external: null, any: false },
      { svc: "local/IPv6", mode: "", internal: ["[fd00:2::2]:8080"], external: [], any: true },
    ]);
  });

  it("a node in a zone no hint names falls back to every endpoint", () => {
    const v = view("c", "z3");
    expect(v[0]).toEqual({ svc: "zoned/IPv4", mode: "", internal: ["10.0.1.1:8080", "10.0.2.1:8080"], external: null, any: true });
    expect(v[1]?.external).toEqual([]);
  });

  it("the node running the endpoint serves externalTrafficPolicy=Local traffic", () => {
    expect(view("b", "z2")[1]).toEqual({
      svc: "local/IPv4",
      mode: "PreferSameZone",
      internal: ["10.0.2.2:8080"],
      external: ["10.0.2.2:8080"],
      any: true,
    });
  });
});
