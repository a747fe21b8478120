/** computeNodeRules: the rules are the node's own, so its zone decides which hinted endpoints it programs. */
import type { EndpointSlice, Node, Service } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { computeNodeRules } from "./node-rules.ts";
import { flowOutput } from "./types.ts";

const service: Service = {
  apiVersion: "v1",
  kind: "Service",
  metadata: { namespace: "default", name: "web" },
  spec: {
    type: "ClusterIP",
    clusterIP: "10.96.0.10",
    clusterIPs: ["10.96.0.10"],
    ipFamilies: ["IPv4"],
    trafficDistribution: "PreferClose",
    ports: [{ name: "http", port: 80, protocol: "TCP" }],
  },
};
const slice: EndpointSlice = {
  apiVersion: "discovery.k8s.io/v1",
  kind: "EndpointSlice",
  metadata: { namespace: "default", name: "web-1", labels: { "kubernetes.io/service-name": "web" } },
  addressType: "IPv4",
  endpoints: ["a", "b"].map((z, i) => ({
    addresses: [`10.244.${i}.7`],
    nodeName: `node-${z}`,
    zone: `zone-${z}`,
    conditions: { ready: true, serving: true, terminating: false },
    hints: { forZones: [{ name: `zone-${z}` }] },
  })),
  ports: [{ name: "http", port: 8080, protocol: "TCP" }],
};
const node = (zone: string | undefined): Node => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: { name: "node-b", ...(zone !== undefined ? { labels: { "topology.kubernetes.io/zone": zone } } : {}) },
  spec: {},
});

describe.each(["iptables", "nftables"] as const)("computeNodeRules (%s) with zone hints", (mode) => {
  const trace = (n?: Node) =>
    flowOutput(
      computeNodeRules({
        mode,
        family: "IPv4",
        nodeName: "node-b",
        clusterCIDR: "10.244.0.0/16",
        nodeIPs: ["192.168.0.3"],
        serviceCIDRs: ["10.96.0.0/16"],
        services: [service],
        slices: [slice],
        ...(n !== undefined ? { node: n } : {}),
      }).trace({ source: "10.244.1.5", destination: "10.96.0.10", protocol: "tcp", port: 80, origin: "prerouting" }, ["192.168.0.3"])
        .outcomes,
    );

  it("the node's zone keeps the flow in-zone", () => {
    expect(trace(node("zone-b"))).toBe("10.244.1.7:8080");
  });

  it("without the node's zone every endpoint is programmed", () => {
    expect(trace(node(undefined))).toBe("10.244.0.7:8080, 10.244.1.7:8080");
    expect(trace()).toBe("10.244.0.7:8080, 10.244.1.7:8080");
  });
});
