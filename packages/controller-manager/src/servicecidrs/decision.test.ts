import { describe, expect, it } from "vitest";
import type { IPAddress, ServiceCIDR } from "@servicenet/api";
import { decideServiceCIDR, orphanedIPs } from "./decision.ts";

const deletedAt = "2026-01-01T00:00:00Z";
const t0 = Date.parse(deletedAt);
const finalizer = "networking.k8s.io/service-cidr-finalizer";

function cidr(name: string, cidrs: string[], o: { deleting?: boolean; finalizers?: string[] } = {}): ServiceCIDR {
  return {
    metadata: { name, finalizers: o.finalizers ?? [finalizer], ...(o.deleting ? { deletionTimestamp: deletedAt } : {}) },
    spec: { cidrs },
  };
}
function ip(name: string, managedBy = "ipallocator.k8s.io"): IPAddress {
  return {
    metadata: { name, labels: { "ipaddress.kubernetes.io/managed-by": managedBy } },
    spec: { parentRef: { group: "", resource: "services", namespace: "default", name: "s" } },
  };
}

describe("decideServiceCIDR: live ServiceCIDR", () => {
  it.each([
    ["without finalizer: add it", [], true],
    ["with finalizer: keep it", [finalizer], false],
    ["with other finalizers only: add ours", ["example.com/x"], true],
  ])("%s, Ready=True", (_n, finalizers, add) => {
    const d = decideServiceCIDR({ cidr: cidr("a", ["10.0.0.0/24"], { finalizers }), allCIDRs: [], ipAddresses: [], now: t0 });
    expect(d).toEqual({
      addFinalizer: add,
      removeFinalizer: false,
      ready: { status: "True", reason: "", message: "Kubernetes Service CIDR is ready" },
      blockingIPs: [],
    });
  });
});

describe("decideServiceCIDR: deleting ServiceCIDR", () => {
  const blocked = {
    status: "False",
    reason: "Terminating",
    message: "There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR",
  };
  const a = cidr("a", ["10.0.0.0/24", "fd00::/120"], { deleting: true });

  it.each([
    ["an IPAddress only it covers blocks", [a], [ip("10.0.0.5")], ["10.0.0.5"]],
    ["an IPv6 IPAddress only it covers blocks", [a], [ip("fd00::10")], ["fd00::10"]],
    ["a live ServiceCIDR covering the IP releases", [a, cidr("b", ["10.0.0.0/16"])], [ip("10.0.0.5")], []],
    ["a live ServiceCIDR with a smaller range covering the IP releases", [a, cidr("b", ["10.0.0.0/28"])], [ip("10.0.0.5")], []],
    [
      "a deleting ServiceCIDR covering the IP does not count",
      [a, cidr("b", ["10.0.0.0/16"], { deleting: true })],
      [ip("10.0.0.5")],
      ["10.0.0.5"],
    ],
    ["IPs not managed by the allocator are ignored", [a], [ip("10.0.0.5", "someone-else")], []],
    ["IPs outside it are ignored", [a], [ip("10.1.0.5")], []],
    // 10.0.0.16 is the network address of b's 10.0.0.16/28, so b does not cover it (PrefixContainsIP).
    ["the other CIDR's network address is not covered by it", [a, cidr("b", ["10.0.0.16/28"])], [ip("10.0.0.16")], ["10.0.0.16"]],
    ["the other CIDR's IPv4 broadcast address is not covered by it", [a, cidr("b", ["10.0.0.16/28"])], [ip("10.0.0.31")], ["10.0.0.31"]],
  ])("%s", (_n, all, ips, want) => {
    expect(orphanedIPs({ cidr: a, allCIDRs: all, ipAddresses: ips })).toEqual(want);
    const d = decideServiceCIDR({ cidr: a, allCIDRs: all, ipAddresses: ips, now: t0 + 60_000 });
    if (want.length > 0) expect(d).toMatchObject({ removeFinalizer: false, ready: blocked, blockingIPs: want });
    else expect(d).toMatchObject({ removeFinalizer: true, blockingIPs: [] });
  });

  it("with deletingCIDRsCover (upstream), a deleting parent counts as cover", () => {
    const all = [a, cidr("b", ["10.0.0.0/16", "fd00::/64"], { deleting: true })];
    expect(orphanedIPs({ cidr: a, allCIDRs: all, ipAddresses: [ip("10.0.0.5")], deletingCIDRsCover: true })).toEqual([]);
  });

  it.each([
    [0, { requeueAfterMs: 10_000, removeFinalizer: false }],
    [3_500, { requeueAfterMs: 6_500, removeFinalizer: false }],
    [9_999, { requeueAfterMs: 1, removeFinalizer: false }],
    [10_000, { removeFinalizer: true }],
  ])("unblocked %i ms after deletion: %j", (elapsed, want) => {
    const d = decideServiceCIDR({ cidr: a, allCIDRs: [a], ipAddresses: [], now: t0 + elapsed });
    expect(d).toMatchObject(want);
    expect(d.ready).toBeUndefined();
  });

  it("no finalizer left to remove: nothing to do", () => {
    const gone = cidr("a", ["10.0.0.0/24"], { deleting: true, finalizers: [] });
    expect(decideServiceCIDR({ cidr: gone, allCIDRs: [gone], ipAddresses: [], now: t0 + 20_000 }).removeFinalizer).toBe(false);
  });
});
