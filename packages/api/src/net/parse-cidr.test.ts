import { describe, expect, it } from "vitest";
import { formatCIDR, isCanonicalCIDR, parseCIDR, parseCIDRSloppy, type CIDR } from "./parse-cidr.ts";

const show = (c: CIDR | null): string | null => (c === null ? null : `${c.family} ${formatCIDR(c)}${c.hostBitsSet ? " host" : ""}`);

// [input, strict, sloppy]
const table: Array<[string, string | null, string | null]> = [
  ["10.0.0.0/24", "IPv4 10.0.0.0/24", "IPv4 10.0.0.0/24"],
  ["10.0.0.1/24", "IPv4 10.0.0.0/24 host", "IPv4 10.0.0.0/24 host"],
  ["0.0.0.0/0", "IPv4 0.0.0.0/0", "IPv4 0.0.0.0/0"],
  ["1.2.3.4/0", "IPv4 0.0.0.0/0 host", "IPv4 0.0.0.0/0 host"],
  ["10.0.0.1/32", "IPv4 10.0.0.1/32", "IPv4 10.0.0.1/32"],
  ["10.0.0.0/33", null, null],
  ["010.0.0.0/8", null, "IPv4 10.0.0.0/8"],
  ["10.0.0.0/08", null, "IPv4 10.0.0.0/8"], // Go's net.ParseCIDR reads the length with dtoi
  ["192.168.007.0/24", null, "IPv4 192.168.7.0/24"],
  ["fd00::/064", null, "IPv6 fd00::/64"],
  ["10.0.0.0", null, null],
  ["10.0.0.0/", null, null],
  ["10.0.0.0/-1", null, null],
  ["10.0.0.0/+8", null, null],
  ["/24", null, null],
  ["asdasdasd", null, null],
  ["fd00:1234::/64", "IPv6 fd00:1234::/64", "IPv6 fd00:1234::/64"],
  ["fd00:1234::2/64", "IPv6 fd00:1234::/64 host", "IPv6 fd00:1234::/64 host"],
  ["FD00:1234::/64", "IPv6 fd00:1234::/64", "IPv6 fd00:1234::/64"],
  ["::/0", "IPv6 ::/0", "IPv6 ::/0"],
  ["2001:db8::1/128", "IPv6 2001:db8::1/128", "IPv6 2001:db8::1/128"],
  ["2001:db8::/129", null, null],
  ["fe80::/64%eth0", null, null],
  ["fe80::%eth0/64", null, null],
  // IPv4-mapped: /96 and longer become IPv4 (Go's IPNet.To4), shorter stay IPv6.
  ["::ffff:1.2.3.0/120", "IPv4 1.2.3.0/24", "IPv4 1.2.3.0/24"],
  ["::ffff:0.0.0.0/96", "IPv4 0.0.0.0/0", "IPv4 0.0.0.0/0"],
  ["::ffff:1.2.3.4/64", "IPv6 ::/64 host", "IPv6 ::/64 host"],
];

describe("parseCIDR / parseCIDRSloppy", () => {
  it.each(table)("%j strict=%j sloppy=%j", (input, strict, sloppy) => {
    expect(show(parseCIDR(input))).toBe(strict);
    expect(show(parseCIDRSloppy(input))).toBe(sloppy);
  });

  it("keeps the network address and prefix", () => {
    const c = parseCIDR("2001:db8:1:2::/64")!;
    expect(c.prefix).toBe(64);
    expect(c.ip.value).toBe(0x20010db8000100020000000000000000n);
  });
});

describe("isCanonicalCIDR", () => {
  it.each([
    ["192.168.0.0/24", true],
    ["fd00:1234::/64", true],
    ["::/0", true],
    ["192.168.0.1/24", false],
    ["FD00:1234::/64", false],
    ["fd00:1234:0::/64", false],
    ["192.168.007.0/24", false],
    ["10.0.0.0/08", false],
    ["::ffff:1.2.3.0/120", false],
    ["not-a-cidr", false],
  ])("%s -> %s", (input, want) => {
    expect(isCanonicalCIDR(input)).toBe(want);
  });
});
