import { describe, expect, it } from "vitest";
import type { ApiClient, Json } from "./api-client.ts";
import { ackMismatches } from "./burst.ts";
import { rangeCapacity } from "./fill.ts";
import { canonicalIP, checkAllocationInvariants } from "./invariants.ts";

const svc = (name: string, clusterIPs: string[], nodePorts: number[] = []): Json => ({
  metadata: { name, namespace: "default" },
  spec: { clusterIP: clusterIPs[0], clusterIPs, ports: nodePorts.map((nodePort) => ({ port: 80, nodePort })) },
});
const ipAddress = (ip: string, ref: string, ageMs: number): Json => ({
  metadata: {
    name: ip,
    labels: { "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io" },
    creationTimestamp: new Date(Date.now() - ageMs).toISOString(),
  },
  spec: { parentRef: { group: "", resource: "services", namespace: "default", name: ref } },
});

/** An ApiClient answering list GETs from fixed items. */
function fake(services: Json[], addresses: Json[] | null): ApiClient {
  return {
    server: "fake",
    close: () => {},
    call: async (_m, path) => {
      if (path.startsWith("/api/v1/services")) return { status: 200, body: { items: services, metadata: {} } };
      if (addresses === null) return { status: 404, body: { kind: "Status", code: 404 } };
      return { status: 200, body: { items: addresses, metadata: {} } };
    },
  };
}

describe("allocation invariants", () => {
  it("passes distinct IPs and ports, and IPAddresses that match their Services", async () => {
    const { problems, report } = await checkAllocationInvariants(
      fake(
        [svc("a", ["10.0.0.1", "fd00::1"], [30001]), svc("b", ["10.0.0.2"], [30002])],
        [ipAddress("10.0.0.1", "a", 0), ipAddress("fd00::1", "a", 0), ipAddress("10.0.0.2", "b", 0)],
      ),
    );
    expect(problems).toEqual([]);
    expect(report).toMatchObject({ services: 2, clusterIPs: 3, nodePorts: 2, ipAddresses: 3, missingIPAddresses: 0 });
  });

  it.each([
    [
      "a ClusterIP held twice",
      [svc("a", ["10.0.0.1"]), svc("b", ["10.0.0.1"])],
      null,
      "ClusterIP 10.0.0.1 held by default/a and default/b",
    ],
    ["an IPv6 ClusterIP held twice in two spellings", [svc("a", ["fd00::1"]), svc("b", ["FD00:0::1"])], null, "ClusterIP fd00::1 held by"],
    ["a NodePort held twice", [svc("a", ["10.0.0.1"], [30001]), svc("b", ["10.0.0.2"], [30001])], null, "NodePort 30001 held by"],
    [
      "an old orphan IPAddress",
      [svc("a", ["10.0.0.1"])],
      [ipAddress("10.0.0.1", "a", 0), ipAddress("10.0.0.9", "gone", 120_000)],
      "IPAddress 10.0.0.9",
    ],
    [
      "an IPAddress pointing at the wrong Service",
      [svc("a", ["10.0.0.1"]), svc("b", ["10.0.0.2"])],
      [ipAddress("10.0.0.1", "b", 120_000)],
      "IPAddress 10.0.0.1",
    ],
  ])("flags %s", async (_, services, addresses, want) => {
    const { problems } = await checkAllocationInvariants(fake(services, addresses));
    expect(problems.join("\n")).toContain(want);
  });

  it("gives an orphan IPAddress the grace period", async () => {
    const { problems, report } = await checkAllocationInvariants(
      fake([svc("a", ["10.0.0.1"])], [ipAddress("10.0.0.1", "a", 0), ipAddress("10.0.0.9", "gone", 5_000)]),
    );
    expect(problems).toEqual([]);
    expect(report.youngOrphans).toBe(1);
  });

  it("compares acknowledged creates with what is stored", () => {
    const acked = new Map([
      ["a", { clusterIPs: ["10.0.0.1"], nodePorts: [] }],
      ["b", { clusterIPs: ["10.0.0.2"], nodePorts: [] }],
    ]);
    expect(ackMismatches(acked, [svc("a", ["10.0.0.1"]), svc("b", ["10.0.0.3"])])).toEqual([
      'b: clusterIPs ["10.0.0.3"], acknowledged ["10.0.0.2"]',
    ]);
    expect(ackMismatches(acked, [svc("a", ["10.0.0.1"])])).toEqual(["b: acknowledged but missing"]);
  });

  it.each([
    ["10.96.0.0/20", 4094],
    ["fd00:10:96::/116", 4095],
    ["fd00::/64", 65535],
    ["fd00:0::1", "fd00::1"],
    ["010.096.000.030", "10.96.0.30"],
    ["::ffff:10.96.0.31", "10.96.0.31"],
    ["FD00:10:96::AC", "fd00:10:96::ac"],
  ])("%s -> %s", (input, want) => {
    expect(typeof want === "number" ? rangeCapacity(input) : canonicalIP(input)).toBe(want);
  });
});

describe("unheldIPs", () => {
  it("lists the addresses of a small range that nobody holds", async () => {
    const { unheldIPs } = await import("./fill.ts");
    expect(unheldIPs("10.0.0.0/29", new Set(["10.0.0.1", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6"]))).toEqual(["10.0.0.2"]);
    expect(unheldIPs("fd00::/125", new Set(["fd00::1", "fd00::2", "fd00::3", "fd00::5", "fd00::6", "fd00::7"]))).toEqual(["fd00::4"]);
  });
});
