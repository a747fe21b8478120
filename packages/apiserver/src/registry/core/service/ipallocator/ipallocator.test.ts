import { afterEach, describe, expect, it } from "vitest";
import { cidrContains, formatIP, parseCIDR } from "@servicenet/api";
import { ErrAllocated, ErrNotInRange, ErrNotReady } from "./interfaces.ts";
import { IPAddressAllocator, hostsPerNetwork } from "./ipallocator.ts";
import { ip, newAllocatorHarness, svcRef, type AllocatorHarness } from "./testing.ts";

let h: AllocatorHarness;
afterEach(async () => h?.close());

const cidr = (t: string) => parseCIDR(t)!;

describe("IPAddressAllocator (upstream ipallocator_test.go)", () => {
  it.each([
    ["192.168.1.0/24", 254n],
    ["192.168.1.0/28", 14n],
    ["192.168.1.0/31", 0n],
    ["192.168.1.0/32", 0n],
    ["2001:db8:1::/120", 255n],
    ["2001:db8:1::/127", 1n],
    ["2001:db8:1::/128", 0n],
    ["2001:db8:1::/64", 2n ** 64n - 1n],
    ["10.0.0.0/12", 1048574n],
  ])("TestAllocateIPAllocator sizes: %s has %s usable addresses", (c, n) => {
    expect(hostsPerNetwork(cidr(c))).toBe(n);
  });

  it("refuses IPv6 prefixes shorter than /64", async () => {
    h = await newAllocatorHarness("IPv6");
    expect(() => new IPAddressAllocator(cidr("fd00::/63"), h.client, h.ipAddresses)).toThrow(
      "shortest allowed prefix length for service CIDR is 64, got 63",
    );
  });

  it("never allocates the network or IPv4 broadcast address; the IPv6 all-ones address is fine", async () => {
    h = await newAllocatorHarness("IPv4");
    const v4 = new IPAddressAllocator(cidr("192.168.1.0/24"), h.client, h.ipAddresses);
    await expect(v4.allocateService(svcRef("a"), ip("192.168.1.0"))).rejects.toBeInstanceOf(ErrNotInRange);
    await expect(v4.allocateService(svcRef("a"), ip("192.168.1.255"))).rejects.toBeInstanceOf(ErrNotInRange);
    await expect(v4.allocateService(svcRef("a"), ip("192.168.2.1"))).rejects.toThrow(
      "the provided IP (192.168.2.1) is not in the valid range. The range of valid IPs is 192.168.1.0/24",
    );
    await v4.allocateService(svcRef("a"), ip("192.168.1.254"));
    await expect(v4.allocateService(svcRef("b"), ip("192.168.1.254"))).rejects.toBeInstanceOf(ErrAllocated);
    const v6 = new IPAddressAllocator(cidr("2001:db8::/64"), h.client, h.ipAddresses);
    await expect(v6.allocateService(svcRef("c"), ip("2001:db8::"))).rejects.toBeInstanceOf(ErrNotInRange);
    await v6.allocateService(svcRef("c"), ip("2001:db8::ffff:ffff:ffff:ffff"));
    const obj = await h.client.get("192.168.1.254");
    expect(obj).toMatchObject({
      metadata: { labels: { "ipaddress.kubernetes.io/ip-family": "IPv4", "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io" } },
      spec: { parentRef: { group: "", resource: "services", namespace: "default", name: "a" } },
    });
  });

  it("a /64 allocates inside itself even from the top of the random range (upstream #138374)", async () => {
    h = await newAllocatorHarness("IPv6");
    const c = cidr("2001:db8:1:2::/64");
    const top = new IPAddressAllocator(c, h.client, h.ipAddresses, { random: (n) => n - 1n });
    const low = new IPAddressAllocator(c, h.client, h.ipAddresses, { random: () => 0n });
    const a = await top.allocateNextService(svcRef("a"));
    const b = await low.allocateNextService(svcRef("b"));
    expect(cidrContains(c, a) && cidrContains(c, b)).toBe(true);
    expect(formatIP(a)).toBe("2001:db8:1:2:ffff:ffff:ffff:ffff");
    // The dynamic band starts after the 256 static addresses.
    expect(formatIP(b)).toBe("2001:db8:1:2::101");
  });

  it("TestAllocateNextFC: fc::/112 hands out distinct addresses in the dynamic band first", async () => {
    h = await newAllocatorHarness("IPv6");
    const a = new IPAddressAllocator(cidr("fc::/112"), h.client, h.ipAddresses);
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const got = await a.allocateNextService(svcRef(`s${i}`));
      expect(got.value).toBeGreaterThan(256n);
      seen.add(formatIP(got));
    }
    expect(seen.size).toBe(50);
  });

  it("falls back to the static band when the dynamic one is full", async () => {
    h = await newAllocatorHarness("IPv4");
    const a = new IPAddressAllocator(cidr("10.0.0.0/27"), h.client, h.ipAddresses); // 30 usable, 16 static
    const got: bigint[] = [];
    for (let i = 0; i < 30; i++) {
      got.push((await a.allocateNextService(svcRef(`s${i}`))).value & 0xffn);
      await h.settle();
    }
    expect(got.slice(0, 14).every((v) => v >= 17n)).toBe(true);
    expect(got.slice(14).every((v) => v <= 16n)).toBe(true);
  });

  it("TestUsedWithCIDRFiltering: used counts only managed IPs inside the prefix", async () => {
    h = await newAllocatorHarness("IPv4");
    const a = new IPAddressAllocator(cidr("10.0.0.0/24"), h.client, h.ipAddresses);
    const b = new IPAddressAllocator(cidr("10.0.1.0/24"), h.client, h.ipAddresses);
    await a.allocateService(svcRef("a"), ip("10.0.0.5"));
    await b.allocateService(svcRef("b"), ip("10.0.1.5"));
    await h.client.create({
      apiVersion: "networking.k8s.io/v1",
      kind: "IPAddress",
      metadata: { name: "10.0.0.6" },
      spec: { parentRef: { resource: "gateways", group: "gateway.networking.k8s.io", name: "g" } },
    });
    await h.settle();
    expect([a.used(), b.used(), a.free()]).toEqual([1, 1, 253]);
  });

  it("is not ready when told so, and release ignores errors", async () => {
    h = await newAllocatorHarness("IPv4");
    const a = new IPAddressAllocator(cidr("10.0.0.0/24"), h.client, h.ipAddresses);
    a.ready = false;
    await expect(a.allocateNextService(svcRef("a"))).rejects.toBeInstanceOf(ErrNotReady);
    await a.release(ip("10.0.0.9"));
  });
});
