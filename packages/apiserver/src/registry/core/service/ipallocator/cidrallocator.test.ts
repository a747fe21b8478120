import { afterEach, describe, expect, it } from "vitest";
import { textLogger } from "@servicenet/component-base/logs";
import { formatIP, parseCIDR } from "@servicenet/api";
import { MetricsRegistry } from "@servicenet/component-base/metrics";
import { Range } from "./bitmap.ts";
import { clusterIPAllocatorMetrics } from "./metrics.ts";
import { ErrAllocated, ErrFull, ErrMismatchedNetwork, ErrNotReady } from "./interfaces.ts";
import { StoredRange } from "./stored-range.ts";
import { ip, newAllocatorHarness, svcRef, type AllocatorHarness } from "./testing.ts";
import { serviceIPsKey } from "../allocator/storage/keys.ts";
import { createStore } from "../../../../storage/index.ts";

let h: AllocatorHarness;
afterEach(async () => h?.close());

/** Allocates until `free()` says nothing is left, checking uniqueness; returns the IPs. */
async function drain(h: AllocatorHarness, found = new Set<string>()): Promise<Set<string>> {
  for (let i = 0; h.meta.free() > 0; i++) {
    const got = formatIP(await h.meta.allocateNextService(svcRef(`s${found.size}`)));
    expect(found.has(got), `allocated ${got} twice`).toBe(false);
    found.add(got);
    await h.settle();
  }
  return found;
}

describe("MetaAllocator (upstream cidrallocator_test.go)", () => {
  it("TestCIDRAllocateMultiple: a second ServiceCIDR extends a full one", async () => {
    h = await newAllocatorHarness("IPv4");
    expect(h.meta.free()).toBe(0);
    await expect(h.meta.allocateNextService(svcRef("x"))).rejects.toBeInstanceOf(ErrFull);
    await h.addServiceCIDR("test", "192.168.0.0/28");
    const found = await drain(h);
    expect(found.size).toBe(14);
    await expect(h.meta.allocateNextService(svcRef("x"))).rejects.toBeInstanceOf(ErrFull);
    await h.addServiceCIDR("test2", "10.0.0.0/28");
    await h.meta.allocateService(svcRef("static"), ip("10.0.0.11"));
    found.add("10.0.0.11");
    await h.settle();
    expect((await drain(h, found)).size).toBe(28);
    await expect(h.meta.allocateNextService(svcRef("x"))).rejects.toBeInstanceOf(ErrFull);
  });

  it("TestCIDRAllocateShadow: a wider ServiceCIDR makes the narrower one's network address allocatable", async () => {
    h = await newAllocatorHarness("IPv4");
    await h.addServiceCIDR("test", "192.168.1.0/24");
    await expect(h.meta.allocateService(svcRef("a"), ip("192.168.1.0"))).rejects.toBeInstanceOf(ErrMismatchedNetwork);
    expect(h.meta.used()).toBe(0);
    await h.addServiceCIDR("test2", "192.168.0.0/16");
    await h.meta.allocateService(svcRef("a"), ip("192.168.1.0"));
    await h.settle();
    expect(h.meta.used()).toBe(1);
  });

  it("TestCIDRAllocateGrow: a containing ServiceCIDR adds its free addresses", async () => {
    h = await newAllocatorHarness("IPv4");
    await h.addServiceCIDR("test", "192.168.0.0/28");
    const found = await drain(h);
    expect(found.size).toBe(14);
    await h.addServiceCIDR("test2", "192.168.0.0/24");
    expect((await drain(h, found)).size).toBe(254);
    await expect(h.meta.allocateNextService(svcRef("x"))).rejects.toBeInstanceOf(ErrFull);
  });

  it("TestCIDRAllocateShrink: after the wide ServiceCIDR goes, only the narrow one allocates", async () => {
    h = await newAllocatorHarness("IPv4");
    await h.addServiceCIDR("test", "192.168.0.0/24");
    const found = await drain(h);
    expect(found.size).toBe(254);
    for (const t of found) await h.meta.release(ip(t));
    await h.settle();
    expect(h.meta.used()).toBe(0);
    await h.addServiceCIDR("cidr2", "192.168.0.0/28");
    await h.removeServiceCIDR("test");
    expect(h.meta.allocatorFor(ip("192.168.0.253"), true)).toBeUndefined();
    expect((await drain(h)).size).toBe(14);
  });

  it("TestCIDRAllocateIPv6: a /120 has 255 addresses (no broadcast in IPv6)", async () => {
    h = await newAllocatorHarness("IPv6");
    await h.addServiceCIDR("test", "fd00:1:2:3::/120");
    const found = await drain(h);
    expect(found.size).toBe(255);
    expect(found.has("fd00:1:2:3::ff")).toBe(true);
    for (const t of found) await h.meta.release(ip(t));
    await h.settle();
    expect(h.meta.used()).toBe(0);
  });

  it("TestCIDRAllocateDualStack: each family takes only its own CIDR of a dual-stack ServiceCIDR", async () => {
    h = await newAllocatorHarness("IPv6");
    await h.addServiceCIDR("dual", "10.0.0.0/28", "fd00::/124");
    const found = await drain(h);
    expect(found.size).toBe(15);
    expect([...found].every((t) => t.startsWith("fd00::"))).toBe(true);
  });

  it("a ServiceCIDR being deleted is not allocated from, at once, but its IPs can be released", async () => {
    h = await newAllocatorHarness("IPv4");
    await h.addServiceCIDR("a", "10.1.0.0/28");
    const held = await h.meta.allocateNextService(svcRef("held"));
    await h.markDeleting("a");
    await expect(h.meta.allocateNextService(svcRef("x"))).rejects.toBeInstanceOf(ErrFull);
    await expect(h.meta.allocateService(svcRef("x"), ip("10.1.0.5"))).rejects.toBeInstanceOf(ErrMismatchedNetwork);
    await h.meta.release(held);
    await h.settle();
    expect(h.meta.used()).toBe(0);
  });

  it("an identical ServiceCIDR keeps a CIDR allocatable while another naming it is deleted", async () => {
    h = await newAllocatorHarness("IPv4");
    await h.addServiceCIDR("a", "10.1.0.0/28");
    await h.addServiceCIDR("b", "10.1.0.0/28");
    await h.markDeleting("a");
    await h.meta.allocateService(svcRef("x"), ip("10.1.0.5"));
  });

  it("a ServiceCIDR with Ready=False is skipped; no Ready condition counts as ready", async () => {
    h = await newAllocatorHarness("IPv4");
    await h.addServiceCIDR("a", "10.1.0.0/28");
    await h.store.guaranteedUpdate("/registry/servicecidrs/a", (cur) => ({
      ...cur,
      status: { conditions: [{ type: "Ready", status: "False" }] },
    }));
    await new Promise((r) => setTimeout(r, 20));
    await expect(h.meta.allocateNextService(svcRef("x"))).rejects.toBeInstanceOf(ErrFull);
  });

  it("orders CIDRs deterministically: the default `kubernetes` ServiceCIDR first", async () => {
    h = await newAllocatorHarness("IPv4");
    await h.addServiceCIDR("extra", "10.2.0.0/24");
    await h.addServiceCIDR("kubernetes", "10.1.0.0/24");
    expect(h.meta.allocators().map((a) => a.cidr().prefix + ":" + formatIP(a.cidr().ip))).toEqual(["24:10.1.0.0", "24:10.2.0.0"]);
    expect(formatIP(await h.meta.allocateNextService(svcRef("x"))).startsWith("10.1.0.")).toBe(true);
  });

  it("skips IPv6 prefixes shorter than /64 (the ServiceCIDR itself is valid)", async () => {
    const logs: string[] = [];
    h = await newAllocatorHarness("IPv6", { logger: textLogger((m) => logs.push(m)) });
    await h.addServiceCIDR("wide", "fd00::/48");
    expect(h.meta.allocators()).toHaveLength(0);
    expect(logs.join("\n")).toContain("shortest allowed prefix length for service CIDR is 64, got 48");
  });

  it("static allocation of a taken IP is ErrAllocated; dry-run writes nothing", async () => {
    h = await newAllocatorHarness("IPv4");
    await h.addServiceCIDR("a", "10.1.0.0/24");
    await h.meta.allocateService(svcRef("a"), ip("10.1.0.10"));
    await expect(h.meta.allocateService(svcRef("b"), ip("10.1.0.10"))).rejects.toBeInstanceOf(ErrAllocated);
    const dry = h.meta.dryRun();
    expect(formatIP(await dry.allocateNextService!(svcRef("c")))).toBe("10.1.0.0");
    await dry.allocateService!(svcRef("c"), ip("10.1.0.20"));
    await expect(dry.allocateService!(svcRef("c"), ip("10.9.0.1"))).rejects.toBeInstanceOf(ErrMismatchedNetwork);
    await h.settle();
    expect(h.meta.used()).toBe(1);
  });

  it("serves upstream's allocator metrics, gauges counted at scrape time", async () => {
    const registry = new MetricsRegistry();
    // random: 0 makes the dynamic pick 10.1.0.1, so the static 10.1.0.3 below never collides with it.
    h = await newAllocatorHarness("IPv4", { metrics: clusterIPAllocatorMetrics(registry), random: () => 0n });
    await h.addServiceCIDR("a", "10.1.0.0/28");
    await h.meta.allocateNextService(svcRef("x"));
    await h.meta.allocateService(svcRef("y"), ip("10.1.0.3"));
    await expect(h.meta.allocateService(svcRef("z"), ip("10.1.0.3"))).rejects.toBeInstanceOf(ErrAllocated);
    await h.settle();
    const text = registry.render();
    expect(text).toContain('kube_apiserver_clusterip_allocator_allocated_ips{cidr="10.1.0.0/28"} 2');
    expect(text).toContain('kube_apiserver_clusterip_allocator_available_ips{cidr="10.1.0.0/28"} 12');
    expect(text).toContain('kube_apiserver_clusterip_allocator_allocation_total{cidr="10.1.0.0/28",scope="dynamic"} 1');
    expect(text).toContain('kube_apiserver_clusterip_allocator_allocation_total{cidr="10.1.0.0/28",scope="static"} 1');
    expect(text).toContain('kube_apiserver_clusterip_allocator_allocation_errors_total{cidr="10.1.0.0/28",scope="static"} 1');
    expect(text).toContain('kube_apiserver_clusterip_allocator_allocation_duration_seconds_count{cidr="10.1.0.0/28"} 1');
  });

  it("is not ready before its informers synced", async () => {
    h = await newAllocatorHarness("IPv4");
    await h.addServiceCIDR("a", "10.1.0.0/24");
    h.ipAddresses.hasSynced = () => false;
    await expect(h.meta.allocateNextService(svcRef("x"))).rejects.toBeInstanceOf(ErrNotReady);
  });
});

describe("MetaAllocator dual-write (upstream TestCIDRAllocateDualWrite*)", () => {
  const withBitmap = async (cidr: string) => {
    const bitmap = new Range(parseCIDR(cidr)!);
    h = await newAllocatorHarness("IPv4", { bitmap });
    await h.addServiceCIDR("kubernetes", cidr);
    return bitmap;
  };

  it("writes both the bitmap bit and the IPAddress, and releases both", async () => {
    const bitmap = await withBitmap("10.0.0.0/28");
    const found = await drain(h);
    expect(found.size).toBe(14);
    expect(bitmap.used()).toBe(14);
    for (const t of found) await h.meta.release(ip(t));
    await h.settle();
    expect(bitmap.used()).toBe(0);
    expect(h.meta.used()).toBe(0);
  });

  it("never hands out an IP the bitmap holds (a bitmap-only apiserver's allocation)", async () => {
    const bitmap = await withBitmap("10.0.0.0/28");
    for (let i = 1; i <= 14; i++) if (i !== 7) bitmap.allocateSync(ip(`10.0.0.${i}`));
    expect(formatIP(await h.meta.allocateNextService(svcRef("x")))).toBe("10.0.0.7");
    await expect(h.meta.allocateService(svcRef("y"), ip("10.0.0.3"))).rejects.toBeInstanceOf(ErrAllocated);
    await expect(h.meta.allocateNextService(svcRef("z"))).rejects.toBeInstanceOf(ErrFull);
  });

  it("keeps the bit of an IP held only as an IPAddress and moves on", async () => {
    const bitmap = await withBitmap("10.0.0.0/29");
    for (let i = 1; i <= 5; i++)
      await h.client.create({
        apiVersion: "networking.k8s.io/v1",
        kind: "IPAddress",
        metadata: { name: `10.0.0.${i}` },
        spec: { parentRef: { resource: "services", namespace: "default", name: "old" } },
      });
    await h.settle();
    expect(formatIP(await h.meta.allocateNextService(svcRef("x")))).toBe("10.0.0.6");
    await h.settle();
    // Every bit now set is an IP somebody holds as an IPAddress.
    const bits: string[] = [];
    bitmap.forEach((b) => bits.push(formatIP(b)));
    expect(bits).toContain("10.0.0.6");
    expect(bits.every((b) => h.ipAddresses.get(b) !== undefined)).toBe(true);
  });

  it("releases the bit when the IPAddress create fails for another reason (deviation: upstream leaks it)", async () => {
    const bitmap = await withBitmap("10.0.0.0/28");
    h.client.create = () => Promise.reject(new Error("etcdserver: request timed out"));
    await expect(h.meta.allocateService(svcRef("x"), ip("10.0.0.4"))).rejects.toThrow("request timed out");
    await expect(h.meta.allocateNextService(svcRef("x"))).rejects.toThrow("request timed out");
    expect(bitmap.used()).toBe(0);
  });

  it("IPs of another ServiceCIDR outside the bitmap are written as IPAddress objects only", async () => {
    const bitmap = await withBitmap("10.0.0.0/30");
    await h.addServiceCIDR("extra", "10.5.0.0/28");
    await drain(h);
    expect(bitmap.used()).toBe(2);
    expect(h.meta.used()).toBe(16);
  });

  it("writes the RangeAllocation once per several creates when requests arrive on successive event-loop turns", async () => {
    const store = await createStore({ backend: "memory" });
    const bitmap = new StoredRange({ cidr: parseCIDR("10.0.0.0/14")!, store });
    await bitmap.ensureInitialized();
    h = await newAllocatorHarness("IPv4", { bitmap }, store);
    await h.addServiceCIDR("kubernetes", "10.0.0.0/14");
    const rev = async () => (await store.get(serviceIPsKey)).metadata.resourceVersion;
    const before = { rev: await rev(), writes: bitmap.stats().writes };
    // 32 Service creates at concurrency 16, each next one reaching the allocator one turn after
    // the previous (as a loaded apiserver's requests do), each also creating its IPAddress.
    const turn = () => new Promise<void>((r) => setImmediate(r));
    let n = 0;
    const caller = async (): Promise<string[]> => {
      const got: string[] = [];
      while (n < 32) {
        const name = `s${n++}`;
        got.push(formatIP(await h.meta.allocateNextService(svcRef(name))));
        await turn();
      }
      return got;
    };
    const callers: Promise<string[]>[] = [];
    for (let i = 0; i < 16; i++) {
      callers.push(caller());
      await turn();
    }
    const ips = (await Promise.all(callers)).flat();
    expect(new Set(ips).size).toBe(32);
    const writes = bitmap.stats().writes - before.writes;
    // One snapshot write per event-loop turn would be 32; batches gather up to 4 busy turns.
    expect(writes).toBeLessThanOrEqual(10);
    expect(await rev()).not.toBe(before.rev);
    await h.settle();
    const fresh = new StoredRange({ cidr: parseCIDR("10.0.0.0/14")!, store });
    // Another apiserver's bitmap sees every one of them taken.
    for (const t of ips) await expect(fresh.allocate(ip(t))).rejects.toBeInstanceOf(ErrAllocated);
    await store.close();
  });
});
