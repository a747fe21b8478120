import { parseCIDR, parseIP, type CIDR, type IP } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../storage/index.ts";
import { containsAddress, containsPrefix, isServiceCIDRReady, overlapsPrefix } from "./servicecidr.ts";

const sc = (name: string, ...cidrs: string[]): KubeObject => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "ServiceCIDR",
  metadata: { name },
  spec: { cidrs },
});
const lister = (...items: KubeObject[]) => ({ list: () => items });
const P = (s: string): CIDR => parseCIDR(s)!;
const A = (s: string): IP => parseIP(s)!;
const names = (objs: KubeObject[]): string[] => objs.map((o) => o.metadata.name ?? "").sort();

const one = [sc("kubernetes", "10.0.0.0/24", "2001:db8::/96")];
const two = [...one, sc("secondary", "10.0.0.0/16", "2001:db8::/64")];
const three = [one[0]!, sc("kubernetes2", "10.0.0.0/24", "2001:db8::/96"), two[1]!];

describe("TestOverlapsPrefix", () => {
  it.each([
    ["only one ServiceCIDR and IPv4 prefix contained", one, "10.0.0.0/26", ["kubernetes"]],
    ["only one ServiceCIDR and larger IPv4 prefix", one, "10.0.0.0/16", ["kubernetes"]],
    ["only one ServiceCIDR and non contained IPv4 prefix", one, "192.168.0.0/24", []],
    ["only one ServiceCIDR and IPv6 larger", one, "2001:db8::/64", ["kubernetes"]],
    ["only one ServiceCIDR and IPv6 prefix out of range", one, "2001:db2::/112", []],
    ["two overlapping ServiceCIDR and IPv4 prefix only contained in one", two, "10.0.0.0/18", ["kubernetes", "secondary"]],
    ["two ServiceCIDR and aprefix larger", two, "2001:db8::/52", ["kubernetes", "secondary"]],
    ["multiple ServiceCIDR match with overlap contains", three, "10.0.0.0/8", ["kubernetes", "kubernetes2", "secondary"]],
  ] as const)("%s", (_name, cidrs, prefix, want) => {
    expect(names(overlapsPrefix(lister(...cidrs), P(prefix)))).toEqual([...want].sort());
  });
});

describe("TestContainsPrefix", () => {
  it.each([
    ["only one ServiceCIDR and IPv4 prefix contained", one, "10.0.0.0/26", ["kubernetes"]],
    ["only one ServiceCIDR and same IPv4 prefix", one, "10.0.0.0/24", ["kubernetes"]],
    ["only one ServiceCIDR and larger IPv4 prefix", one, "10.0.0.0/16", []],
    ["only one ServiceCIDR and IPv6 larger", one, "2001:db8::/64", []],
    ["two ServiceCIDR and IPv4 prefix only contained in one", two, "10.0.0.0/18", ["secondary"]],
    ["two ServiceCIDR and IPv6 prefix contained in one", two, "2001:db8::/72", ["secondary"]],
    ["two ServiceCIDR and prefix out of range", two, "2001:db2::/64", []],
    ["multiple ServiceCIDR match with overlap", three, "10.0.0.0/28", ["kubernetes", "kubernetes2", "secondary"]],
  ] as const)("%s", (_name, cidrs, prefix, want) => {
    expect(names(containsPrefix(lister(...cidrs), P(prefix)))).toEqual([...want].sort());
  });
});

describe("TestContainsAddress", () => {
  it.each([
    ["only one ServiceCIDR and IPv4 address contained", one, "10.0.0.1", ["kubernetes"]],
    ["only one ServiceCIDR and IPv4 address broadcast", one, "10.0.0.255", []],
    ["only one ServiceCIDR and IPv4 address base", one, "10.0.0.0", []],
    ["only one ServiceCIDR and IPv4 address out of range", one, "192.0.0.1", []],
    ["only one ServiceCIDR and IPv6 address contained", one, "2001:db8::2:3", ["kubernetes"]],
    ["only one ServiceCIDR and IPv6 address broadcast", one, "2001:db8::ffff:ffff", ["kubernetes"]],
    ["only one ServiceCIDR and IPv6 address base", one, "2001:db8::", []],
    ["two ServiceCIDR and address contained in the larger only", two, "10.0.1.1", ["secondary"]],
    ["two ServiceCIDR and broadcast of the smaller inside the larger", two, "10.0.0.255", ["secondary"]],
    ["an IPv4-mapped IPv6 text is the IPv4 address, never an IPv6 one", one, "::ffff:10.0.0.1", ["kubernetes"]],
  ] as const)("%s", (_name, cidrs, ip, want) => {
    expect(names(containsAddress(lister(...cidrs), A(ip)))).toEqual([...want].sort());
  });
});

describe("isServiceCIDRReady", () => {
  const withConditions = (conditions: unknown[]): KubeObject => ({ ...sc("x", "10.0.0.0/24"), status: { conditions } });
  it("treats a missing Ready condition as ready", () => {
    expect(isServiceCIDRReady(sc("x", "10.0.0.0/24"))).toBe(true);
    expect(isServiceCIDRReady(withConditions([]))).toBe(true);
    expect(isServiceCIDRReady(withConditions([{ type: "Other", status: "False" }]))).toBe(true);
  });
  it("follows the Ready condition's status", () => {
    expect(isServiceCIDRReady(withConditions([{ type: "Ready", status: "True" }]))).toBe(true);
    expect(isServiceCIDRReady(withConditions([{ type: "Ready", status: "False", reason: "Terminating" }]))).toBe(false);
    expect(isServiceCIDRReady(withConditions([{ type: "Ready", status: "Unknown" }]))).toBe(false);
  });
  it("is not ready while being deleted, whatever the condition", () => {
    const deleting = withConditions([{ type: "Ready", status: "True" }]);
    deleting.metadata.deletionTimestamp = "2026-01-01T00:00:00Z";
    expect(isServiceCIDRReady(deleting)).toBe(false);
  });
});
