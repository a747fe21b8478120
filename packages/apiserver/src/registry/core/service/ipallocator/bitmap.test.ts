import { formatIP, parseCIDR, parseIP, type IP } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../allocator/random.ts";
import { Range, calculateRangeOffset, usableRangeSize } from "./bitmap.ts";
import { ErrAllocated, ErrFull, ErrMismatchedNetwork, ErrNotInRange } from "./interfaces.ts";

const ip = (s: string): IP => parseIP(s)!;
const cidr = (s: string) => parseCIDR(s)!;

describe("ipallocator Range", () => {
  // Rows after upstream ipallocator TestAllocate.
  it.each([
    {
      name: "IPv4 /24",
      cidr: "192.168.1.0/24",
      free: 254,
      released: "192.168.1.5",
      outOfRange: ["192.168.0.1", "192.168.1.0", "192.168.1.255", "192.168.2.2"],
      allocated: "192.168.1.1",
    },
    {
      name: "IPv4 /25",
      cidr: "192.168.1.0/25",
      free: 126,
      released: "192.168.1.5",
      outOfRange: ["192.168.1.0", "192.168.1.127", "192.168.1.128"],
      allocated: "192.168.1.1",
    },
    {
      name: "IPv6 /116",
      cidr: "2001:db8:1::/116",
      free: 4095,
      released: "2001:db8:1::5",
      outOfRange: ["2001:db8:1::", "2001:db8::1", "2001:db8:1::1000"],
      allocated: "2001:db8:1::1",
    },
    {
      name: "IPv6 /108 capped at 2^16",
      cidr: "2000::/108",
      free: 65535,
      released: "2000::5",
      outOfRange: ["2000::", "2000::1:0", "2000::f:ffff"],
      allocated: "2000::ffff",
    },
  ])("$name", async (tc) => {
    const r = new Range(cidr(tc.cidr), { random: seededRandom(3) });
    expect(r.free()).toBe(tc.free);
    expect(r.used()).toBe(0);
    expect(r.ipFamily()).toBe(tc.cidr.includes(":") ? "IPv6" : "IPv4");

    await r.allocate(ip(tc.allocated));
    await expect(r.allocate(ip(tc.allocated))).rejects.toThrow(ErrAllocated);
    await expect(r.allocate(ip(tc.allocated))).rejects.toThrow("provided IP is already allocated");
    expect(r.has(ip(tc.allocated))).toBe(true);

    for (const bad of tc.outOfRange) {
      await expect(r.allocate(ip(bad))).rejects.toThrow(
        `the provided IP (${formatIP(ip(bad))}) is not in the valid range. The range of valid IPs is ${tc.cidr}`,
      );
      await r.release(ip(bad)); // no-op
    }

    await r.allocate(ip(tc.released));
    expect(r.used()).toBe(2);
    await r.release(ip(tc.released));
    expect(r.has(ip(tc.released))).toBe(false);
    expect(r.free()).toBe(tc.free - 1);
  });

  it("a full range throws ErrFull with upstream's text and allocates nothing", async () => {
    const r = new Range(cidr("10.0.0.0/29"), { random: seededRandom(1) });
    const got = new Set<string>();
    for (let i = 0; i < 6; i++) got.add(formatIP(await r.allocateNext()));
    expect([...got].sort()).toEqual(["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6"]);
    const before = r.snapshot();
    await expect(r.allocateNext()).rejects.toThrow(ErrFull);
    await expect(r.allocateNext()).rejects.toThrow("range is full");
    expect(r.snapshot()).toEqual(before);
  });

  it.each([
    ["10.0.0.0/28", 0],
    ["10.0.0.0/27", 16],
    ["10.0.0.0/24", 16],
    ["10.0.0.0/22", 64],
    ["10.0.0.0/20", 256],
    ["10.0.0.0/16", 256],
    ["2000::/108", 256],
    ["fd00::/64", 256],
    ["fd00::/124", 0],
  ])("calculateRangeOffset(%s) = %i", (c, want) => {
    expect(calculateRangeOffset(cidr(c))).toBe(want);
  });

  it.each([
    ["10.0.0.0/32", 0],
    ["10.0.0.0/31", 0],
    ["10.0.0.0/30", 2],
    ["2000::/128", 0],
    ["2000::/127", 1],
    ["2000::/64", 65535],
  ])("usableRangeSize(%s) = %i", (c, want) => {
    expect(usableRangeSize(cidr(c))).toBe(want);
  });

  it("dynamic allocation stays out of the static band until the upper band is full", async () => {
    const r = new Range(cidr("10.0.0.0/27"), { random: seededRandom(9) }); // 30 usable, band of 16
    for (let i = 0; i < 14; i++) {
      const got = await r.allocateNext();
      expect(got.value - cidr("10.0.0.0/27").ip.value).toBeGreaterThan(16n);
    }
    const next = await r.allocateNext();
    expect(next.value - cidr("10.0.0.0/27").ip.value).toBeLessThanOrEqual(16n);
  });

  it("snapshot/restore round-trips through a RangeAllocation", async () => {
    const r = new Range(cidr("10.0.0.0/16"), { random: seededRandom(5) });
    for (let i = 0; i < 100; i++) await r.allocateNext();
    await r.allocate(ip("10.0.0.1"));
    const snap = r.snapshot();
    expect(snap.range).toBe("10.0.0.0/16");
    const copy = Range.fromSnapshot(snap);
    const a: string[] = [];
    const b: string[] = [];
    r.forEach((x) => a.push(formatIP(x)));
    copy.forEach((x) => b.push(formatIP(x)));
    expect(b).toEqual(a);
    expect(copy.used()).toBe(101);
    expect(() => copy.restore("10.1.0.0/16", new Uint8Array())).toThrow(ErrMismatchedNetwork);
    expect(() => copy.restore("10.0.0.0/17", new Uint8Array())).toThrow("the provided network does not match the current range");
  });

  it("dryRun checks the range but never reserves", async () => {
    const r = new Range(cidr("10.0.0.0/24"));
    const dry = r.dryRun();
    await dry.allocate(ip("10.0.0.7"));
    expect(r.has(ip("10.0.0.7"))).toBe(false);
    await expect(dry.allocate(ip("10.0.1.7"))).rejects.toThrow(ErrNotInRange);
    expect(formatIP(await dry.allocateNext())).toBe("10.0.0.0");
    await r.allocate(ip("10.0.0.8"));
    await dry.release(ip("10.0.0.8"));
    expect(r.has(ip("10.0.0.8"))).toBe(true);
    expect(r.used()).toBe(1);
  });

  it("64 concurrent allocateNext calls never return one IP twice", async () => {
    const r = new Range(cidr("10.0.0.0/26"), { random: seededRandom(11) }); // 62 usable
    const results = await Promise.allSettled(Array.from({ length: 64 }, () => r.allocateNext()));
    const ok = results.filter((x) => x.status === "fulfilled").map((x) => formatIP(x.value));
    expect(ok.length).toBe(62);
    expect(new Set(ok).size).toBe(62);
    expect(results.filter((x) => x.status === "rejected").length).toBe(2);
  });
});
