import { describe, expect, it } from "vitest";
import {
  addIP,
  addressAt,
  broadcastAddress,
  cidrContains,
  cidrContainsCIDR,
  cidrSize,
  cidrsOverlap,
  compareIPs,
  indexOf,
  lastAddress,
  containsIP,
  prefixContainsIP,
} from "./cidr-math.ts";
import { formatIP } from "./format-ip.ts";
import { parseCIDR } from "./parse-cidr.ts";
import { parseIP } from "./parse-ip.ts";

const cidr = (s: string) => parseCIDR(s)!;
const ip = (s: string) => parseIP(s)!;

describe("cidrSize", () => {
  it.each([
    ["10.0.0.0/24", 256n],
    ["10.0.0.1/32", 1n],
    ["0.0.0.0/0", 4294967296n],
    ["fd00::/64", 18446744073709551616n],
    ["fd00::/108", 1048576n],
    ["::/0", 340282366920938463463374607431768211456n],
    ["::1/128", 1n],
  ])("%s has %s addresses", (c, want) => {
    expect(cidrSize(cidr(c))).toBe(want);
  });
});

describe("addressAt / indexOf / lastAddress", () => {
  it.each([
    ["10.0.0.0/24", 0n, "10.0.0.0"],
    ["10.0.0.0/24", 255n, "10.0.0.255"],
    ["fd00::/64", 1n, "fd00::1"],
    ["fd00::/64", 18446744073709551615n, "fd00::ffff:ffff:ffff:ffff"],
    ["fd00::/48", 18446744073709551616n, "fd00:0:0:1::"], // 2^64, beyond any 64-bit offset
    ["::/0", 340282366920938463463374607431768211455n, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ])("%s[%s] = %s and back", (c, index, want) => {
    const a = addressAt(cidr(c), index);
    expect(formatIP(a)).toBe(want);
    expect(indexOf(cidr(c), a)).toBe(index);
  });

  it.each([
    ["10.0.0.0/24", 256n],
    ["10.0.0.0/24", -1n],
    ["fd00::/64", 18446744073709551616n],
  ])("%s[%s] throws RangeError", (c, index) => {
    expect(() => addressAt(cidr(c), index)).toThrow(RangeError);
  });

  it.each([
    ["10.0.0.0/24", "10.0.1.0"],
    ["10.0.0.0/24", "::ffff:10.0.1.0"],
    ["fd00::/64", "fd00:0:0:1::"],
    ["fd00::/64", "10.0.0.1"],
    ["0.0.0.0/0", "::"],
  ])("indexOf(%s, %s) is -1n", (c, a) => {
    expect(indexOf(cidr(c), ip(a))).toBe(-1n);
  });

  it.each([
    ["10.0.0.0/24", "10.0.0.255"],
    ["10.96.0.0/12", "10.111.255.255"],
    ["fd00::/64", "fd00::ffff:ffff:ffff:ffff"],
    ["fd00:1:2::/112", "fd00:1:2::ffff"],
    ["::/0", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    ["0.0.0.0/0", "255.255.255.255"],
  ])("last/broadcast of %s is %s", (c, want) => {
    expect(formatIP(lastAddress(cidr(c)))).toBe(want);
    expect(formatIP(broadcastAddress(cidr(c)))).toBe(want);
  });
});

describe("contains / overlap", () => {
  it.each([
    ["10.0.0.0/8", "10.255.255.255", true],
    ["10.0.0.0/8", "11.0.0.0", false],
    ["10.0.0.0/8", "::ffff:10.1.2.3", true], // the mapped form parses as IPv4
    ["0.0.0.0/0", "::", false], // never across families
    ["::/0", "1.2.3.4", false],
    ["::/0", "2001:db8::1", true],
    ["fd00::/64", "fd00::ffff:ffff:ffff:ffff", true],
    ["fd00::/64", "fd00:0:0:1::", false],
  ])("%s contains %s: %s", (c, a, want) => {
    expect(cidrContains(cidr(c), ip(a))).toBe(want);
  });

  it.each([
    ["10.0.0.0/8", "10.1.0.0/16", true],
    ["10.1.0.0/16", "10.0.0.0/8", true],
    ["10.0.0.0/16", "10.1.0.0/16", false],
    ["0.0.0.0/0", "::/0", false],
    ["fd00::/64", "fd00::/48", true],
    ["fd00::/64", "fd00:0:0:1::/64", false],
    ["10.0.0.0/8", "::ffff:10.0.0.0/104", true],
  ])("%s overlaps %s: %s", (a, b, want) => {
    expect(cidrsOverlap(cidr(a), cidr(b))).toBe(want);
    expect(cidrsOverlap(cidr(b), cidr(a))).toBe(want);
  });

  it.each([
    ["10.0.0.0/8", "10.1.0.0/16", true],
    ["10.1.0.0/16", "10.0.0.0/8", false],
    ["10.0.0.0/8", "10.0.0.0/8", true],
    ["0.0.0.0/0", "::/0", false],
  ])("%s contains CIDR %s: %s", (a, b, want) => {
    expect(cidrContainsCIDR(cidr(a), cidr(b))).toBe(want);
  });
});

describe("addIP / compareIPs", () => {
  it.each([
    ["10.0.0.255", 1n, "10.0.1.0"],
    ["10.0.1.0", -1n, "10.0.0.255"],
    ["fd00::ffff:ffff:ffff:ffff", 1n, "fd00:0:0:1::"],
    ["::", 340282366920938463463374607431768211455n, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ])("%s + %s = %s", (a, n, want) => {
    expect(formatIP(addIP(ip(a), n))).toBe(want);
  });

  it.each([
    ["255.255.255.255", 1n],
    ["0.0.0.0", -1n],
    ["ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 1n],
  ])("%s + %s throws", (a, n) => {
    expect(() => addIP(ip(a), n)).toThrow(RangeError);
  });

  it.each([
    ["10.0.0.1", "10.0.0.2", -1],
    ["10.0.0.2", "10.0.0.1", 1],
    ["10.0.0.1", "::ffff:10.0.0.1", 0],
    ["255.255.255.255", "::", -1], // IPv4 sorts before IPv6
    ["::1", "0.0.0.0", 1],
    ["fd00::1", "fd00::1", 0],
  ])("compare(%s, %s) = %s", (a, b, want) => {
    expect(compareIPs(ip(a), ip(b))).toBe(want);
  });
});

describe("prefixContainsIP", () => {
  it.each([
    ["10.0.0.0/24", "10.0.0.1", true],
    ["10.0.0.0/24", "10.0.0.254", true],
    ["10.0.0.0/24", "10.0.0.0", false],
    ["10.0.0.0/24", "10.0.0.255", false],
    ["10.0.0.0/24", "10.0.1.1", false],
    ["10.0.0.0/31", "10.0.0.1", false],
    ["10.0.0.5/32", "10.0.0.5", false],
    ["2001:db8::/64", "2001:db8::ffff:ffff:ffff:ffff", true],
    ["2001:db8::/64", "2001:db8::", false],
    ["2001:db8::/64", "10.0.0.1", false],
    ["0.0.0.0/0", "255.255.255.255", false],
  ] as const)("%s contains %s: %s", (prefix, addr, want) => {
    expect(prefixContainsIP(cidr(prefix), ip(addr))).toBe(want);
  });
});

describe("containsIP", () => {
  it.each([
    ["10.0.0.0/24", "10.0.0.0", true],
    ["10.0.0.0/24", "10.0.0.255", true],
    ["10.0.0.0/24", "10.0.1.1", false],
    ["010.000.000.000/24", "10.0.0.7", true],
    ["10.0.0.0/24", "010.0.0.7", true],
    ["2001:db8::/64", "2001:db8::1", true],
    ["2001:db8::/64", "10.0.0.1", false],
    ["not-a-cidr", "10.0.0.1", false],
    ["10.0.0.0/24", "", false],
  ] as const)("%s contains %s: %s", (c, a, want) => {
    expect(containsIP(c, a)).toBe(want);
  });
});
