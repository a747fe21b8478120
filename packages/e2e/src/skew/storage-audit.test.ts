import { describe, expect, it } from "vitest";
import { audit, decodeRangeAllocation, encodeRangeAllocation, type StorageView } from "./storage-audit.ts";
import { parseCIDR } from "@servicenet/api";

describe("RangeAllocation data (base64 of big.Int.Bytes(), bit i = network+1+i)", () => {
  it.each([
    { range: "10.0.0.0/24", data: "", ips: [] },
    { range: "10.0.0.0/24", data: "AQ==", ips: ["10.0.0.1"] }, // 0x01: bit 0
    { range: "10.0.0.0/24", data: "BQ==", ips: ["10.0.0.1", "10.0.0.3"] }, // 0x05
    { range: "10.0.0.0/24", data: "AQA=", ips: ["10.0.0.9"] }, // 0x0100: bit 8
    { range: "fd00::/112", data: "Ag==", ips: ["fd00::2"] }, // 0x02: bit 1
  ])("$range $data", ({ range, data, ips }) => {
    expect([...decodeRangeAllocation(range, data)].sort()).toEqual(ips);
    expect(encodeRangeAllocation(range, ips)).toBe(data);
  });

  it("round-trips a large bitmap", () => {
    const ips = ["10.96.0.1", "10.96.3.7", "10.96.255.254"];
    expect([...decodeRangeAllocation("10.96.0.0/16", encodeRangeAllocation("10.96.0.0/16", ips))].sort()).toEqual(ips.sort());
  });
});

const svc = (name: string, ...ips: string[]) => ({
  metadata: { namespace: "default", name },
  spec: { clusterIP: ips[0], clusterIPs: ips },
});
const ipa = (ip: string, name: string, created = "2026-01-01T00:00:00Z") => ({
  metadata: { name: ip, creationTimestamp: created, labels: { "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io" } },
  spec: { parentRef: { group: "", resource: "services", namespace: "default", name } },
});

describe("audit", () => {
  const bitmap = (ips: string[]) => ({ cidr: parseCIDR("10.0.0.0/24")!, ips: new Set(ips), object: { metadata: {} } });
  it("finds duplicates, missing IPAddresses and bits, extra bits and orphans", () => {
    const v: StorageView = {
      services: [svc("a", "10.0.0.1"), svc("b", "10.0.0.1"), svc("c", "10.0.0.2", "fd00::2"), svc("d", "10.0.0.3")],
      ipAddresses: [ipa("10.0.0.1", "a"), ipa("10.0.0.2", "c"), ipa("fd00::2", "c"), ipa("10.0.0.3", "gone"), ipa("10.0.0.9", "gone")],
      serviceCIDRs: [],
      bitmaps: [bitmap(["10.0.0.1", "10.0.0.2", "10.0.0.7"])],
    };
    const a = audit(v, Date.parse("2026-01-01T00:00:10Z"));
    expect(a.duplicates).toEqual(["10.0.0.1: default/a and default/b"]);
    expect(a.missingIPAddresses).toEqual(["10.0.0.3 (default/d)"]);
    expect(a.missingBits).toEqual(["10.0.0.3 (default/d)"]);
    expect(a.extraBits).toEqual(["10.0.0.7"]);
    expect(a.orphans).toEqual([
      { ip: "10.0.0.3", ageMs: 10_000 },
      { ip: "10.0.0.9", ageMs: 10_000 },
    ]);
  });

  it("passes a consistent view", () => {
    const a = audit({
      services: [svc("a", "10.0.0.1")],
      ipAddresses: [ipa("10.0.0.1", "a")],
      serviceCIDRs: [],
      bitmaps: [bitmap(["10.0.0.1"])],
    });
    expect([a.duplicates, a.missingIPAddresses, a.missingBits, a.extraBits, a.orphans]).toEqual([[], [], [], [], []]);
  });
});
