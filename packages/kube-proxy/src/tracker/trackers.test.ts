import type { Service } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "../testing/fixtures.ts";
import { EndpointsChangeTracker, lastChangeTriggerTimeAnnotation, updateEndpointsMap } from "./endpoints-change-tracker.ts";
import type { EndpointsMap } from "./endpoints-change-tracker.ts";
import { ServiceChangeTracker, serviceToServiceMap, updateServicePortMap } from "./service-change-tracker.ts";
import type { ServicePortMap } from "./service-change-tracker.ts";

const dual = (mutate: (s: Service) => void = () => {}) =>
  makeTestService("ns", "svc", (s) => {
    s.spec.type = "LoadBalancer";
    s.spec.clusterIP = "10.0.0.1";
    s.spec.clusterIPs = ["10.0.0.1", "fd00::1"];
    s.spec.ipFamilies = ["IPv4", "IPv6"];
    s.spec.externalIPs = ["1.1.1.1", "2001:db8::1"];
    s.spec.loadBalancerSourceRanges = ["1.2.0.0/16", "2001:db8::/32"];
    s.spec.ports = [{ name: "p", port: 80, protocol: "TCP", nodePort: 30001 }];
    s.status = {
      loadBalancer: { ingress: [{ ip: "5.5.5.5" }, { ip: "2001:db8::5" }, { ip: "6.6.6.6", ipMode: "Proxy" }, { hostname: "lb.example" }] },
    };
    mutate(s);
  });

describe("ServiceChangeTracker", () => {
  it.each([
    ["IPv4", "10.0.0.1", ["1.1.1.1"], ["5.5.5.5"], ["1.2.0.0/16"]],
    ["IPv6", "fd00::1", ["2001:db8::1"], ["2001:db8::5"], ["2001:db8::/32"]],
  ] as const)("the %s map holds only that family's IPs; Proxy-mode LB IPs are dropped", (family, cip, eips, vips, ranges) => {
    const [info] = [...serviceToServiceMap(family, dual()).values()];
    expect(info?.clusterIP).toBe(cip);
    expect(info?.externalIPs).toEqual(eips);
    expect(info?.loadBalancerVIPs).toEqual(vips);
    expect(info?.loadBalancerSourceRanges).toEqual(ranges);
    expect(info?.nodePort).toBe(30001);
  });

  it("accumulates previous/current between syncs and drops a change that returns to the start", () => {
    const t = new ServiceChangeTracker("IPv4");
    const a = dual();
    const b = dual((s) => (s.spec.ports = [{ name: "p", port: 81, protocol: "TCP" }]));
    expect(t.update(undefined, a)).toBe(true);
    const map: ServicePortMap = new Map();
    expect([...updateServicePortMap(map, t).updatedServices]).toEqual(["ns/svc"]);
    expect(t.update(a, b)).toBe(true);
    expect(t.update(b, a)).toBe(false);
    expect(t.pending).toBe(0);
    expect(t.changesTotal).toBe(3);
    expect(t.update(a, undefined)).toBe(true);
    updateServicePortMap(map, t);
    expect(map.size).toBe(0);
  });

  it("ignores changes that do not matter to this family", () => {
    const t = new ServiceChangeTracker("IPv6");
    const v4only = dual((s) => ((s.spec.clusterIPs = ["10.0.0.1"]), (s.spec.ipFamilies = ["IPv4"])));
    expect(t.update(undefined, v4only)).toBe(false);
  });
});

describe("EndpointsChangeTracker", () => {
  const slice = (ips: string[], extra: Record<string, string> = {}) =>
    makeTestEndpointSlice("ns", "svc", 1, (e) => {
      e.metadata.annotations = extra;
      e.endpoints = ips.map((ip, i) => ({ addresses: [ip], nodeName: i === 0 ? "me" : "other", conditions: { ready: i !== 2 } }));
      e.ports = [tcpPort("p", 8080)];
    });

  it("ignores slices of the other address type and removals of unknown slices", () => {
    const t = new EndpointsChangeTracker("IPv6", "me");
    expect(t.endpointSliceUpdate(slice(["10.1.1.1"]), false)).toBe(false);
    const t4 = new EndpointsChangeTracker("IPv4", "me");
    expect(t4.endpointSliceUpdate(slice(["10.1.1.1"]), true)).toBe(false);
  });

  it("builds sorted endpoints with locality and conditions; an identical update is no change", () => {
    const t = new EndpointsChangeTracker("IPv4", "me");
    expect(t.endpointSliceUpdate(slice(["10.1.1.2", "10.1.1.1", "10.1.1.3"]), false)).toBe(true);
    expect(t.endpointSliceUpdate(slice(["10.1.1.2", "10.1.1.1", "10.1.1.3"]), false)).toBe(false);
    const map: EndpointsMap = new Map();
    updateEndpointsMap(map, t);
    const eps = map.get("ns/svc:p/TCP") ?? [];
    expect(eps.map((e) => [e.endpoint, e.isLocal, e.ready])).toEqual([
      ["10.1.1.1:8080", false, true],
      ["10.1.1.2:8080", true, true],
      ["10.1.1.3:8080", false, false],
    ]);
    expect(t.endpointSliceUpdate(slice(["10.1.1.2"]), true)).toBe(true);
    expect([...updateEndpointsMap(map, t).updatedServices]).toEqual(["ns/svc"]);
    expect(map.size).toBe(0);
  });

  it("reports trigger times newer than the tracker's start for network programming latency", () => {
    const t = new EndpointsChangeTracker("IPv4", "me", Date.parse("2026-01-01T00:00:00Z"));
    t.endpointSliceUpdate(slice(["10.1.1.1"], { [lastChangeTriggerTimeAnnotation]: "2025-12-31T23:00:00Z" }), false);
    t.endpointSliceUpdate(slice(["10.1.1.2"], { [lastChangeTriggerTimeAnnotation]: "2026-01-01T00:00:05.5Z" }), false);
    const r = updateEndpointsMap(new Map(), t);
    expect(r.lastChangeTriggerTimes.get("ns/svc")).toEqual([Date.parse("2026-01-01T00:00:05.5Z")]);
  });

  it("counts a whole-second trigger time from the second the tracker started in", () => {
    const t = new EndpointsChangeTracker("IPv4", "me", Date.parse("2026-01-01T00:00:00.700Z"));
    t.endpointSliceUpdate(slice(["10.1.1.1"], { [lastChangeTriggerTimeAnnotation]: "2026-01-01T00:00:00Z" }), false);
    t.endpointSliceUpdate(slice(["10.1.1.2"], { [lastChangeTriggerTimeAnnotation]: "2025-12-31T23:59:59Z" }), false);
    const r = updateEndpointsMap(new Map(), t);
    expect(r.lastChangeTriggerTimes.get("ns/svc")).toEqual([Date.parse("2026-01-01T00:00:00Z")]);
  });
});
