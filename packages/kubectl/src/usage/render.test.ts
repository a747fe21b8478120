import type { IPAddress, Service, ServiceCIDR } from "@servicenet/api";
import { serviceCIDRUsage } from "@servicenet/printers/usage";
import { describe, expect, it } from "vitest";
import { renderUsage, usageToJSON } from "./render.ts";

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

describe("renderUsage / usageToJSON", () => {
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

  it("renders a table and JSON with BigInts as strings", () => {
    const text = renderUsage(usage);
    expect(text.split("\n")[0]).toBe(
      "NAME         FAMILY   CIDR              STATUS                SIZE                   ALLOCATED   FREE                   USED   STATIC (USED/SIZE)   DYNAMIC (USED/SIZE)",
    );
    expect(text).toContain(
      "kubernetes   IPv6     fd00:10:96::/64   Ready                 18446744073709551615   3           18446744073709551612   0.0%   2/256                1/18446744073709551359",
    );
    expect(text).toContain("  10.96.0.77    -         <no IPAddress>                legacy/old");
    const json = JSON.parse(usageToJSON(usage)) as { items: { size: string }[] };
    expect(json.items[1]?.size).toBe("18446744073709551615");
  });
});
