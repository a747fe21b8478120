/** Upstream's pkg/controller/nodeipam/ipam/cidrset/cidr_set_test.go tables. */
import { describe, expect, it } from "vitest";
import { formatCIDR, parseCIDRSloppy, type CIDR } from "@servicenet/api/net";
import { CidrSet, errCIDRRangeNoCIDRsRemaining, errCIDRSetSubNetTooBig } from "./cidr-set.ts";

const cidr = (s: string): CIDR => {
  const c = parseCIDRSloppy(s);
  if (c === null) throw new Error(`bad test CIDR ${s}`);
  return c;
};
const str = (c: CIDR) => formatCIDR(c);

describe("TestCIDRSetFullyAllocated", () => {
  it.each([
    {
      clusterCIDRStr: "127.123.234.0/30",
      subNetMaskSize: 30,
      expectedCIDR: "127.123.234.0/30",
      description: "Fully allocated CIDR with IPv4",
    },
    { clusterCIDRStr: "beef:1234::/30", subNetMaskSize: 30, expectedCIDR: "beef:1234::/30", description: "Fully allocated CIDR with IPv6" },
  ])("$description", (tc) => {
    const a = new CidrSet(cidr(tc.clusterCIDRStr), tc.subNetMaskSize);
    const p = a.allocateNext();
    expect(str(p)).toBe(tc.expectedCIDR);
    expect(() => a.allocateNext()).toThrow(errCIDRRangeNoCIDRsRemaining);
    a.release(p);
    expect(str(a.allocateNext())).toBe(tc.expectedCIDR);
    expect(() => a.allocateNext()).toThrow(errCIDRRangeNoCIDRsRemaining);
  });
});

describe("TestIndexToCIDRBlock", () => {
  it.each([
    ["127.123.3.0/16", 24, 0, "127.123.0.0/24", "1st IP address indexed with IPv4"],
    ["127.123.0.0/16", 24, 15, "127.123.15.0/24", "16th IP address indexed with IPv4"],
    ["192.168.5.219/28", 32, 5, "192.168.5.213/32", "5th IP address indexed with IPv4"],
    ["2001:0db8:1234:3::/48", 64, 0, "2001:db8:1234::/64", "1st IP address indexed with IPv6 /64"],
    ["2001:0db8:1234::/48", 64, 15, "2001:db8:1234:f::/64", "16th IP address indexed with IPv6 /64"],
    ["2001:0db8:85a3::8a2e:0370:7334/50", 63, 6425, "2001:db8:85a3:3232::/63", "6426th IP address indexed with IPv6 /63"],
    ["2001:0db8::/32", 48, 0, "2001:db8::/48", "1st IP address indexed with IPv6 /48"],
    ["2001:0db8::/32", 48, 15, "2001:db8:f::/48", "16th IP address indexed with IPv6 /48"],
    ["2001:0db8:85a3::8a2e:0370:7334/32", 48, 6425, "2001:db8:1919::/48", "6426th IP address indexed with IPv6 /48"],
    ["2001:0db8:1234:ff00::/56", 72, 0, "2001:db8:1234:ff00::/72", "1st IP address indexed with IPv6 /72"],
    ["2001:0db8:1234:ff00::/56", 72, 15, "2001:db8:1234:ff00:f00::/72", "16th IP address indexed with IPv6 /72"],
    ["2001:0db8:1234:ff00::0370:7334/56", 72, 6425, "2001:db8:1234:ff19:1900::/72", "6426th IP address indexed with IPv6 /72"],
    ["2001:0db8:1234:0:1234::/80", 96, 0, "2001:db8:1234:0:1234::/96", "1st IP address indexed with IPv6 /96"],
    ["2001:0db8:1234:0:1234::/80", 96, 15, "2001:db8:1234:0:1234:f::/96", "16th IP address indexed with IPv6 /96"],
    ["2001:0db8:1234:ff00::0370:7334/80", 96, 6425, "2001:db8:1234:ff00:0:1919::/96", "6426th IP address indexed with IPv6 /96"],
  ] as const)("%s /%i index %i -> %s (%s)", (clusterCIDRStr, subnetMaskSize, index, block, _description) => {
    expect(str(new CidrSet(cidr(clusterCIDRStr), subnetMaskSize).indexToCIDRBlock(index))).toBe(block);
  });
});

function allocateAll(a: CidrSet, n: number): CIDR[] {
  return Array.from({ length: n }, () => a.allocateNext());
}

describe("TestCIDRSet_RandomishAllocation", () => {
  it.each(["127.123.234.0/16", "beef:1234::/16"])("%s", (clusterCIDRStr) => {
    const a = new CidrSet(cidr(clusterCIDRStr), 24);
    const cidrs = allocateAll(a, 256);
    expect(() => a.allocateNext()).toThrow(errCIDRRangeNoCIDRsRemaining);
    for (const c of cidrs) a.release(c);
    const rcidrs = allocateAll(a, 256);
    expect(() => a.allocateNext()).toThrow(errCIDRRangeNoCIDRsRemaining);
    expect(rcidrs.map(str)).toEqual(cidrs.map(str));
  });
});

describe("TestCIDRSet_AllocationOccupied", () => {
  it.each(["127.123.234.0/16", "beef:1234::/16"])("%s", (clusterCIDRStr) => {
    const a = new CidrSet(cidr(clusterCIDRStr), 24);
    const numCIDRs = 256;
    const cidrs = allocateAll(a, numCIDRs);
    expect(() => a.allocateNext()).toThrow();
    for (const c of cidrs) a.release(c);
    for (let i = numCIDRs / 2; i < numCIDRs; i++) a.occupy(cidrs[i]!);
    a.occupy(cidrs[numCIDRs / 2]!);
    const rcidrs = allocateAll(a, numCIDRs / 2);
    expect(() => a.allocateNext()).toThrow();
    rcidrs.push(...cidrs.slice(numCIDRs / 2));
    expect(rcidrs.map(str)).toEqual(cidrs.map(str));
  });
});

describe("TestDoubleOccupyRelease", () => {
  it("counts each block once", () => {
    const a = new CidrSet(cidr("10.42.0.0/16"), 24);
    const operations = [
      ["10.42.5.0/24", "occupy", 1], // occupy 1 element: +1
      ["10.42.9.0/24", "occupy", 2], // occupy 1 more element: +1
      ["10.42.8.0/22", "occupy", 5], // occupy 4 elements overlapping with one from the above: +3
      ["10.42.9.0/24", "occupy", 5], // occupy an already-occupied element: no change
      ["10.42.9.0/24", "release", 4], // release an occupied element: -1
      ["10.42.9.0/24", "release", 4], // release an unoccupied element: no change
      ["10.42.4.0/22", "release", 3], // release 4 elements, only one of which is occupied: -1
    ] as const;
    for (const [c, op, numOccupied] of operations) {
      if (op === "occupy") a.occupy(cidr(c));
      else a.release(cidr(c));
      expect(a.allocatedCIDRs).toBe(numOccupied);
    }
    const numAllocatable24s = (1 << 8) - 3;
    allocateAll(a, numAllocatable24s);
    expect(() => a.allocateNext()).toThrow();
  });
});

describe("TestGetBitforCIDR", () => {
  it.each([
    ["127.0.0.0/8", 16, "127.0.0.0/16", 0, "Get 0 Bit with IPv4"],
    ["be00::/8", 16, "be00::/16", 0, "Get 0 Bit with IPv6"],
    ["127.0.0.0/8", 16, "127.123.0.0/16", 123, "Get 123rd Bit with IPv4"],
    ["be00::/8", 16, "beef::/16", 0xef, "Get xef Bit with IPv6"],
    ["127.0.0.0/8", 16, "127.168.0.0/16", 168, "Get 168th Bit with IPv4"],
    ["be00::/8", 16, "be68::/16", 0x68, "Get x68th Bit with IPv6"],
    ["127.0.0.0/8", 16, "127.224.0.0/16", 224, "Get 224th Bit with IPv4"],
    ["be00::/8", 16, "be24::/16", 0x24, "Get x24th Bit with IPv6"],
    ["192.168.0.0/16", 24, "192.168.12.0/24", 12, "Get 12th Bit with IPv4"],
    ["beef::/16", 24, "beef:1200::/24", 0x12, "Get x12th Bit with IPv6"],
    ["192.168.0.0/16", 24, "192.168.151.0/24", 151, "Get 151st Bit with IPv4"],
    ["beef::/16", 24, "beef:9700::/24", 0x97, "Get x97st Bit with IPv6"],
    ["192.168.0.0/16", 24, "127.168.224.0/24", -1, "Get error with IPv4"],
    ["beef::/16", 24, "2001:db00::/24", -1, "Get error with IPv6"],
  ] as const)("%s /%i %s (%s)", (clusterCIDRStr, subNetMaskSize, subNetCIDRStr, expectedBit, _description) => {
    const cs = new CidrSet(cidr(clusterCIDRStr), subNetMaskSize);
    const get = () => cs.indexForIP(cidr(subNetCIDRStr).ip);
    if (expectedBit < 0) expect(get).toThrow("is out of the range of CIDR allocator");
    else expect(get()).toBe(expectedBit);
  });
});

describe("TestOccupy", () => {
  it.each([
    ["127.0.0.0/8", 16, "127.0.0.0/8", 0, 255, "Occupy all Bits with IPv4"],
    ["2001:beef:1200::/40", 48, "2001:beef:1200::/40", 0, 255, "Occupy all Bits with IPv6"],
    ["127.0.0.0/8", 16, "127.0.0.0/2", 0, 255, "Occupy every Bit with IPv4"],
    ["2001:beef:1200::/40", 48, "2001:beef:1234::/34", 0, 255, "Occupy every Bit with IPv6"],
    ["127.0.0.0/8", 16, "127.0.0.0/16", 0, 0, "Occupy 1st Bit with IPv4"],
    ["2001:beef:1200::/40", 48, "2001:beef:1200::/48", 0, 0, "Occupy 1st Bit with IPv6"],
    ["127.0.0.0/8", 32, "127.0.0.0/16", 0, 65535, "Occupy 65535 Bits with IPv4"],
    ["2001:beef:1200::/48", 64, "2001:beef:1200::/48", 0, 65535, "Occupy 65535 Bits with IPv6"],
    ["127.0.0.0/7", 16, "127.0.0.0/15", 256, 257, "Occupy 257th Bit with IPv4"],
    ["2001:beef:7f00::/39", 48, "2001:beef:7f00::/47", 256, 257, "Occupy 257th Bit with IPv6"],
    ["127.0.0.0/7", 15, "127.0.0.0/15", 128, 128, "Occupy 128th Bit with IPv4"],
    ["2001:beef:7f00::/39", 47, "2001:beef:7f00::/47", 128, 128, "Occupy 128th Bit with IPv6"],
    ["127.0.0.0/7", 18, "127.0.0.0/15", 1024, 1031, "Occupy 1031st Bit with IPv4"],
    ["2001:beef:7f00::/39", 50, "2001:beef:7f00::/47", 1024, 1031, "Occupy 1031st Bit with IPv6"],
  ] as const)("%s /%i occupy %s (%s)", (clusterCIDRStr, subNetMaskSize, subNetCIDRStr, begin, end, _description) => {
    const cs = new CidrSet(cidr(clusterCIDRStr), subNetMaskSize);
    cs.occupy(cidr(subNetCIDRStr));
    expect(cs.allocatedCIDRs).toBe(end - begin + 1);
    expect(cs.isUsed(begin)).toBe(true);
    expect(cs.isUsed(end)).toBe(true);
    if (begin > 0) expect(cs.isUsed(begin - 1)).toBe(false);
    expect(cs.isUsed(end + 1)).toBe(false);
  });

  it("refuses a CIDR outside the cluster CIDR", () => {
    const cs = new CidrSet(cidr("10.10.0.0/16"), 24);
    expect(() => cs.occupy(cidr("172.10.0.0/24"))).toThrow("cidr 172.10.0.0/24 is out the range of cluster cidr 10.10.0.0/16");
    expect(() => cs.occupy(cidr("a00::/86"))).toThrow("is out the range of cluster cidr");
  });
});

describe("TestCIDRSetv6", () => {
  it.each([
    {
      clusterCIDRStr: "127.0.0.0/8",
      subNetMaskSize: 32,
      expectErr: false,
      expectedCIDR: "127.0.0.0/32",
      expectedCIDR2: "127.0.0.1/32",
      description: "Max cluster subnet size with IPv4",
    },
    {
      clusterCIDRStr: "beef:1234::/32",
      subNetMaskSize: 49,
      expectErr: true,
      expectedCIDR: "",
      expectedCIDR2: "",
      description: "Max cluster subnet size with IPv6",
    },
    {
      clusterCIDRStr: "2001:beef:1234:369b::/60",
      subNetMaskSize: 64,
      expectErr: false,
      expectedCIDR: "2001:beef:1234:3690::/64",
      expectedCIDR2: "2001:beef:1234:3691::/64",
      description: "Allocate a few IPv6",
    },
  ])("$description", (tc) => {
    if (tc.expectErr) {
      expect(() => new CidrSet(cidr(tc.clusterCIDRStr), tc.subNetMaskSize)).toThrow(errCIDRSetSubNetTooBig);
      return;
    }
    const a = new CidrSet(cidr(tc.clusterCIDRStr), tc.subNetMaskSize);
    expect(str(a.allocateNext())).toBe(tc.expectedCIDR);
    expect(str(a.allocateNext())).toBe(tc.expectedCIDR2);
  });
});
