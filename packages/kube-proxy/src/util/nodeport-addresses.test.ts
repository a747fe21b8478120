import { describe, expect, it } from "vitest";
import { isLoopbackIP, NodePortAddresses } from "./nodeport-addresses.ts";

const addrs = () => ["127.0.0.1", "::1", "10.20.30.51", "100.200.201.1", "2001:db8::1", "fe80::1%eth0".replace(/%.*$/, "")];

// pkg/proxy/util/nodeport_addresses_test.go: TestGetNodeIPs (families filtered, zero CIDR, loopback).
describe("NodePortAddresses", () => {
  it.each([
    ["IPv4", [], true, ["127.0.0.1", "10.20.30.51", "100.200.201.1"]],
    ["IPv6", [], true, ["::1", "2001:db8::1", "fe80::1"]],
    ["IPv4", ["10.20.30.0/24", "2001:db8::/64"], false, ["10.20.30.51"]],
    ["IPv6", ["10.20.30.0/24", "2001:db8::/64"], false, ["2001:db8::1"]],
    ["IPv4", ["10.20.30.0/24", "0.0.0.0/0"], true, ["127.0.0.1", "10.20.30.51", "100.200.201.1"]],
    ["IPv4", ["2001:db8::/64"], true, ["127.0.0.1", "10.20.30.51", "100.200.201.1"]],
    ["IPv4", ["192.168.0.0/16"], false, []],
  ] as const)("%s %j: matchAll %s, node IPs %j", (family, cidrs, matchAll, ips) => {
    const npa = new NodePortAddresses(family, cidrs);
    expect(npa.matchAll).toBe(matchAll);
    expect(npa.getNodeIPs(addrs)).toEqual(ips);
  });

  it.each([
    [[], true],
    [["2001:db8::/64"], true],
    [["10.20.30.0/24"], false],
    [["127.0.0.1/32"], true],
    [["127.0.0.0/8", "10.20.30.0/24"], true],
    [["0.0.0.0/0"], true],
    [["120.0.0.0/4"], true],
  ] as const)("TestContainsIPv4Loopback %j: %s", (cidrs, want) => {
    expect(new NodePortAddresses("IPv4", cidrs).containsIPv4Loopback).toBe(want);
  });

  it("String() is Go's %v of the CIDRs; loopback is 127/8 and ::1", () => {
    expect(String(new NodePortAddresses("IPv6", ["10.0.0.0/8"]))).toBe("[::/0]");
    expect([isLoopbackIP("127.1.2.3"), isLoopbackIP("::1"), isLoopbackIP("10.0.0.1")]).toEqual([true, true, false]);
  });
});
