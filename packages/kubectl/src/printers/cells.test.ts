import { describe, expect, it } from "vitest";
import type { Endpoints, IPAddress, Service } from "../types.ts";
import { getServiceExternalIP, makePortString } from "./service.ts";
import { formatDiscoveryEndpoints, formatDiscoveryPorts, formatEndpoints } from "./endpoints.ts";
import { formatParentRef } from "./networking.ts";

const lb = (ingress: { ip?: string; hostname?: string }[], externalIPs: string[] = []): Service => ({ spec: { type: "LoadBalancer", externalIPs }, status: { loadBalancer: { ingress } } });

describe("service cells (printers.go)", () => {
  it.each([
    ["ClusterIP without external IPs", { spec: { type: "ClusterIP" } }, false, "<none>"],
    ["NodePort with external IPs", { spec: { type: "NodePort", externalIPs: ["1.1.1.1", "2.2.2.2"] } }, false, "1.1.1.1,2.2.2.2"],
    ["pending LoadBalancer", lb([]), false, "<pending>"],
    ["LoadBalancer clipped to 16 bytes", lb([{ hostname: "a-very-long-hostname.example.com" }]), false, "a-very-long-h..."],
    ["LoadBalancer not clipped when wide", lb([{ hostname: "a-very-long-hostname.example.com" }]), true, "a-very-long-hostname.example.com"],
    ["LoadBalancer sorted and joined with external IPs", lb([{ ip: "9.9.9.9" }, { ip: "1.2.3.4" }], ["5.5.5.5"]), true, "1.2.3.4,9.9.9.9,5.5.5.5"],
    ["ExternalName", { spec: { type: "ExternalName", externalName: "x.example" } }, false, "x.example"],
    ["unknown type", { spec: {} }, false, "<unknown>"],
  ])("%s", (_n, svc, wide, want) => {
    expect(getServiceExternalIP(svc, wide)).toBe(want);
  });
  it("makePortString shows node ports", () => {
    expect(makePortString([{ port: 80, protocol: "TCP" }, { port: 53, nodePort: 30053, protocol: "UDP" }])).toBe("80/TCP,53:30053/UDP");
  });
});

describe("endpoint cells", () => {
  const ep: Endpoints = { subsets: [{ addresses: [{ ip: "10.0.0.1" }, { ip: "fd00::1" }], ports: [{ name: "a", port: 80 }, { name: "b", port: 81 }] }] };
  it("formatEndpoints caps at 3 and counts the rest", () => {
    expect(formatEndpoints(ep)).toBe("10.0.0.1:80,[fd00::1]:80,10.0.0.1:81 + 1 more...");
    expect(formatEndpoints({ subsets: [{ notReadyAddresses: [{ ip: "1.1.1.1" }] }] })).toBe("<none>");
    expect(formatEndpoints({})).toBe("<none>");
  });
  it("EndpointSlice ports and endpoints", () => {
    expect(formatDiscoveryPorts([{ port: 80 }, { name: "x" }, {}, { port: 4 }])).toBe("80,x,* + 1 more...");
    expect(formatDiscoveryPorts([])).toBe("<unset>");
    expect(formatDiscoveryEndpoints([{ addresses: ["a", "b"] }, { addresses: ["c", "d", "e"] }])).toBe("a,b,c + 2 more...");
  });
});

describe("IPAddress PARENTREF", () => {
  it.each([
    [{ spec: { parentRef: { group: "", resource: "services", namespace: "default", name: "kubernetes" } } }, "services/default/kubernetes"],
    [{ spec: { parentRef: { group: "gateway.networking.k8s.io", resource: "Gateways", name: "gw" } } }, "gateways.gateway.networking.k8s.io/gw"],
    [{ spec: {} }, "<none>"],
  ] as [IPAddress, string][])("%j -> %s", (ip, want) => {
    expect(formatParentRef(ip)).toBe(want);
  });
});
