import type { IPAddress, Service, ServiceCIDR } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { serviceCIDRUsage, staticBandSize } from "./servicecidr-usage.ts";

const sc = (name: string, cidrs: string[], extra: Partial<ServiceCIDR> = {}): ServiceCIDR => ({
  kind: "ServiceCIDR",
  metadata: { name, ...extra.metadata },
  spec: { cidrs },
  ...extra,
});
const ipObj = (ip: string, ns?: string, name?: string): IPAddress => ({
  kind: "IPAddress",
  metadata: { name: ip },
  spec: name === undefined ? {} : { parentRef: { group: "", resource: "services", namespace: ns, name } },
});
const svc = (ns: string, name: string, ips: string[]): Service => ({
  kind: "Service",
  metadata: { namespace: ns, name },
  spec: { clusterIPs: ips },
});

describe("staticBandSize (calculateRangeOffset)", () => {
  // Totals (including network/broadcast) as ipallocator.go calculateRangeOffset's comment gives them.
  it.each([
    ["/28", 16n, 0n],
    ["/27", 32n, 16n],
    ["/24", 256n, 16n],
    ["/22", 1024n, 64n],
    ["/20", 4096n, 256n],
    ["/64", 1n << 64n, 256n],
  ])("%s -> %s addresses give a static band of %s", (_p, total, want) => {
    expect(staticBandSize(total)).toBe(want);
  });
});

describe("serviceCIDRUsage", () => {
  const cidrs = [
    sc("kubernetes", ["10.96.0.0/24", "fd00:10:96::/64"], {
      status: { conditions: [{ type: "Ready", status: "True", lastTransitionTime: "2025-01-01T00:00:00Z", reason: "", message: "" }] },
    }),
    sc("small", ["10.200.0.0/28"]),
  ];
  const ips = [
    ipObj("10.96.0.1", "default", "kubernetes"),
    ipObj("10.96.0.10", "default", "dns"),
    ipObj("10.96.0.200", "default", "web"),
    ipObj("fd00:10:96::1", "default", "kubernetes"),
    ipObj("fd00:10:96::ffff:ffff:ffff:fffe", "default", "web"),
    ipObj("fd00:10:96::100", "default", "ghost"),
    ipObj("10.200.0.3"),
    ipObj("192.168.0.1", "default", "elsewhere"),
  ];
  const services = [
    svc("default", "kubernetes", ["10.96.0.1", "fd00:10:96::1"]),
    svc("default", "dns", ["10.96.0.10"]),
    svc("default", "web", ["10.96.0.200", "fd00:10:96::ffff:ffff:ffff:fffe"]),
    svc("legacy", "old", ["10.96.0.77"]),
  ];
  const usage = serviceCIDRUsage(cidrs, ips, services);

  it("counts per family and band on a /24", () => {
    const v4 = usage[0];
    expect(v4).toMatchObject({ serviceCIDR: "kubernetes", family: "IPv4", size: 254n, allocated: 3n, free: 251n, ready: "True" });
    expect(v4?.static).toEqual({ first: "10.96.0.1", last: "10.96.0.16", size: 16n, used: 2n });
    expect(v4?.dynamic).toEqual({ first: "10.96.0.17", last: "10.96.0.254", size: 238n, used: 1n });
    expect(v4?.withoutIPAddress).toEqual([{ namespace: "legacy", name: "old", ip: "10.96.0.77" }]);
  });

  it("is exact on a /64 (2^64 - 1 allocatable addresses)", () => {
    const v6 = usage[1];
    expect(v6?.size).toBe((1n << 64n) - 1n);
    expect(v6?.allocated).toBe(3n);
    expect(v6?.free).toBe((1n << 64n) - 4n);
    expect(v6?.static).toEqual({ first: "fd00:10:96::1", last: "fd00:10:96::100", size: 256n, used: 2n });
    expect(v6?.dynamic.first).toBe("fd00:10:96::101");
    expect(v6?.dynamic.last).toBe("fd00:10:96:0:ffff:ffff:ffff:ffff");
    expect(v6?.dynamic.size).toBe((1n << 64n) - 1n - 256n);
    expect(v6?.dynamic.used).toBe(1n);
  });

  it("links holders to Services and flags IPAddresses whose Service does not hold them", () => {
    const v6 = usage[1];
    expect(v6?.holders.map((h) => [h.ip, h.band, h.service?.name ?? null])).toEqual([
      ["fd00:10:96::1", "static", "kubernetes"],
      ["fd00:10:96::100", "static", null],
      ["fd00:10:96:0:ffff:ffff:ffff:fffe", "dynamic", "web"],
    ]);
  });

  it("has no band split on a /28", () => {
    const small = usage[2];
    expect(small).toMatchObject({ size: 14n, allocated: 1n, ready: "Unknown" });
    expect(small?.static.size).toBe(0n);
    expect(small?.dynamic).toMatchObject({ first: "10.200.0.1", last: "10.200.0.14", size: 14n, used: 1n });
  });

  it("filters by name and reports NotFound like kubectl", () => {
    expect(serviceCIDRUsage(cidrs, ips, services, "small")).toHaveLength(1);
    expect(() => serviceCIDRUsage(cidrs, ips, services, "nope")).toThrow('servicecidrs.networking.k8s.io "nope" not found');
  });
});
