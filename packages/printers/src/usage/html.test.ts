import type { IPAddress, Service, ServiceCIDR } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { maxCells, rangeCells } from "./address-map.ts";
import { renderUsageHTML } from "./html.ts";
import { serviceCIDRUsage } from "./servicecidr-usage.ts";

const cidr = (name: string, cidrs: string[], deleting = false): ServiceCIDR => ({
  kind: "ServiceCIDR",
  metadata: {
    name,
    ...(deleting ? { deletionTimestamp: "2025-01-01T00:00:00Z", finalizers: ["networking.k8s.io/service-cidr-finalizer"] } : {}),
  },
  spec: { cidrs },
});
const ipObj = (ip: string, name: string): IPAddress => ({
  kind: "IPAddress",
  metadata: { name: ip },
  spec: { parentRef: { group: "", resource: "services", namespace: "default", name } },
});
const svc = (name: string, ips: string[]): Service => ({
  kind: "Service",
  metadata: { namespace: "default", name },
  spec: { clusterIPs: ips },
});

describe("rangeCells", () => {
  it.each([
    // prefix, lower cells (network + static band), upper cells, addresses per upper block
    ["10.0.0.0/28", 16, 0, 1n],
    ["10.0.0.0/24", 256, 0, 1n],
    // Blocks aligned on their width: the first one starts right after the static band.
    ["10.0.0.0/22", 65, 480, 2n], // static band 64; offsets 65..1023 (broadcast included) in blocks of 2
    ["10.96.0.0/16", 257, 510, 128n],
    ["10.0.0.0/12", 257, 512, 2048n],
    ["fd00::/112", 257, 510, 128n],
    ["fd00::/64", 257, 512, (1n << 64n) / 512n],
  ])("%s stays small: %i + %i cells, blocks of %s", (prefix, lower, upper, block) => {
    const [u] = serviceCIDRUsage([cidr("c", [prefix])], [], []);
    const cells = rangeCells(u!);
    expect(cells.lower).toHaveLength(lower);
    expect(cells.upper).toHaveLength(upper);
    expect(cells.upper.length).toBeLessThanOrEqual(maxCells + 1);
    expect(cells.blockSize).toBe(block);
    // Every address is in exactly one cell.
    const all = [...cells.lower, ...cells.upper];
    expect(all.reduce((n, c) => n + (c.last - c.first + 1n), 0n)).toBe(
      1n << BigInt((prefix.includes(":") ? 128 : 32) - Number(prefix.split("/")[1])),
    );
    expect(all[0]).toMatchObject({ kind: "reserved", first: 0n });
  });

  it("counts holders in their cells and marks the reserved broadcast", () => {
    const ips = [ipObj("10.96.0.10", "dns"), ipObj("10.96.200.1", "web"), ipObj("10.96.200.2", "web2")];
    const [u] = serviceCIDRUsage([cidr("c", ["10.96.0.0/16"])], ips, [svc("dns", ["10.96.0.10"]), svc("web", ["10.96.200.1"])]);
    const { lower, upper } = rangeCells(u!);
    expect(lower[10]).toMatchObject({ kind: "static", used: 1n, holders: ["default/dns"] });
    const block = upper.find((c) => c.used > 0n)!;
    expect(block).toMatchObject({ used: 2n, holders: ["default/web", "<none>"], size: 128n });
    expect(upper[upper.length - 1]).toMatchObject({ reserved: true, size: 127n });
  });
});

describe("renderUsageHTML", () => {
  const cidrs = [cidr("kubernetes", ["10.96.0.0/16", "fd00:10:96::/64"]), cidr("old", ["10.100.0.0/24"], true)];
  const ips = [ipObj("10.96.0.1", "kubernetes"), ipObj("10.100.0.7", "legacy")];
  const html = renderUsageHTML(serviceCIDRUsage(cidrs, ips, [svc("kubernetes", ["10.96.0.1"]), svc("legacy", ["10.100.0.7"])]), {
    source: "test",
    generatedAt: new Date(0),
  });

  it("is one self-contained document: no script, no external resource", () => {
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).not.toMatch(/<script|<link|src=|href=/);
  });

  it("has a section per range with its numbers, and marks a deleting ServiceCIDR", () => {
    expect(html.match(/<section class="range/g)).toHaveLength(3);
    expect(html).toContain('data-name="old" data-family="IPv4" data-cidr="10.100.0.0/24" data-status="Terminating"');
    expect(html).toContain("Being deleted: the finalizer holds it");
    expect(html).toContain('data-size="18446744073709551615" data-allocated="0"');
  });

  it("escapes names", () => {
    const [u] = serviceCIDRUsage([cidr("<x>", ["10.0.0.0/28"])], [], []);
    expect(renderUsageHTML([u!], { source: "t" })).toContain("&#60;x&#62;");
  });

  it("links related pages, escaped, only when asked", () => {
    const [u] = serviceCIDRUsage([cidr("a", ["10.0.0.0/28"])], [], []);
    const linked = renderUsageHTML([u!], { source: "t", links: [{ href: "http://127.0.0.1:8002/?a=1&b=2", text: "dataplane <view>" }] });
    expect(linked).toContain('<p class="links">See also: <a href="http://127.0.0.1:8002/?a=1&#38;b=2">dataplane &#60;view&#62;</a></p>');
  });
});
