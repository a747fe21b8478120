/**
 * The persisted ClusterIP Range on every backend: upstream bitmap_test.go's allocate/release
 * cases over storage, the dual-write initialisation, dry-run, metrics, and the two-apiserver
 * concurrency check (2,000 concurrent allocateNext on one /21 from two independent ranges).
 */
import { textLogger } from "@servicenet/component-base/logs";
import { describe, expect, it } from "vitest";
import { StatusError, formatIP, parseCIDRSloppy, parseIPSloppy, type CIDR, type IP } from "@servicenet/api";
import type { Store } from "../../../../storage/index.ts";
import { MetricsRegistry } from "@servicenet/component-base/metrics";
import { seededRandom } from "../allocator/random.ts";
import { secondaryServiceIPsKey, serviceIPsKey } from "../allocator/storage/keys.ts";
import { rangeBackends, reopen, withStore } from "../allocator/storage/testing.ts";
import { Range } from "./bitmap.ts";
import { ErrAllocated, ErrFull, ErrNotInRange } from "./interfaces.ts";
import { clusterIPAllocatorMetrics } from "./metrics.ts";
import { StoredRange, dualWriteInitLogLine } from "./stored-range.ts";
import { PortAllocator } from "../portallocator/allocator.ts";
import { Allocators } from "../storage/alloc.ts";
import { makeService } from "../storage/testing.ts";

const cidr = (s: string): CIDR => parseCIDRSloppy(s)!;
const ip = (s: string): IP => parseIPSloppy(s)!;

async function initialized(store: Store, c: string, seed = 1, key = serviceIPsKey): Promise<StoredRange> {
  const r = new StoredRange({ cidr: cidr(c), store, key, random: seededRandom(seed) });
  await r.ensureInitialized();
  return r;
}

/** Popcount of the stored bitmap, read back through a fresh in-memory Range. */
async function storedUsed(store: Store, key = serviceIPsKey): Promise<number> {
  const obj = await store.get(key);
  return Range.fromSnapshot({ range: obj["range"] as string, data: obj["data"] as string }).used();
}

describe.each(rangeBackends())("StoredRange on %s", (backend) => {
  it("ensureInitialized creates the empty RangeAllocation once, logging upstream's line", () =>
    withStore(backend, async ({ store }) => {
      const lines: string[] = [];
      const a = new StoredRange({ cidr: cidr("10.0.0.0/24"), store, logger: textLogger((m) => lines.push(m), { verbosity: 2 }) });
      await expect(a.allocateNext()).rejects.toThrow("cannot allocate resources of type serviceipallocations at this time");
      expect(await a.ensureInitialized()).toBe(true);
      expect(await a.ensureInitialized()).toBe(false);
      expect(lines).toEqual([JSON.stringify(dualWriteInitLogLine)]);
      expect(await a.get()).toMatchObject({ range: "10.0.0.0/24", data: "" });
      expect(formatIP(await a.allocateNext())).toMatch(/^10\.0\.0\./);
    }));

  it("logs the creation only at -v=2 (storage_core.go's klog.Infof)", () =>
    withStore(backend, async ({ store }) => {
      const lines: string[] = [];
      const a = new StoredRange({ cidr: cidr("10.0.0.0/24"), store, logger: textLogger((m) => lines.push(m), { verbosity: 1 }) });
      expect(await a.ensureInitialized()).toBe(true);
      expect(lines).toEqual([]);
    }));

  it("through the Service registry an uninitialised range is upstream's 500", () =>
    withStore(backend, async ({ store }) => {
      const r = new StoredRange({ cidr: cidr("10.0.0.0/24"), store });
      const alloc = new Allocators({
        serviceIPAllocatorsByFamily: new Map([["IPv4", r]]),
        defaultServiceIPFamily: "IPv4",
        serviceNodePorts: PortAllocator.fromRangeString("30000-32767"),
      });
      const err = await alloc.allocateCreate(makeService("a"), false).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StatusError);
      expect([(err as StatusError).code, (err as StatusError).message]).toEqual([
        500,
        "Internal error occurred: failed to allocate a serviceIP: cannot allocate resources of type serviceipallocations at this time",
      ]);
    }));

  it.each([
    { name: "in range, free", cidr: "192.168.1.0/24", ip: "192.168.1.10", err: null },
    { name: "network address", cidr: "192.168.1.0/24", ip: "192.168.1.0", err: ErrNotInRange },
    { name: "broadcast address", cidr: "192.168.1.0/24", ip: "192.168.1.255", err: ErrNotInRange },
    { name: "outside", cidr: "192.168.1.0/24", ip: "10.0.0.1", err: ErrNotInRange },
    { name: "IPv6 beyond the 64k window of a /108", cidr: "2001:db8::/108", ip: "2001:db8::1:0", err: ErrNotInRange },
    { name: "IPv6 all-ones of a /112", cidr: "2001:db8::/112", ip: "2001:db8::ffff", err: null },
  ])("allocate: $name", (tc) =>
    withStore(backend, async ({ store }) => {
      const r = await initialized(store, tc.cidr);
      const done = r.allocate(ip(tc.ip));
      if (tc.err) await expect(done).rejects.toBeInstanceOf(tc.err);
      else {
        await done;
        await expect(r.allocate(ip(tc.ip))).rejects.toBeInstanceOf(ErrAllocated);
      }
    }),
  );

  it("two ranges on one store see each other's allocations and releases", () =>
    withStore(backend, async ({ store }) => {
      const a = await initialized(store, "10.0.0.0/29", 1);
      const b = await initialized(store, "10.0.0.0/29", 2);
      await a.allocate(ip("10.0.0.3"));
      await expect(b.allocate(ip("10.0.0.3"))).rejects.toBeInstanceOf(ErrAllocated);
      const rest = await Promise.all(Array.from({ length: 5 }, (_, i) => (i % 2 ? a : b).allocateNext()));
      expect(new Set([...rest.map(formatIP), "10.0.0.3"]).size).toBe(6);
      await expect(a.allocateNext()).rejects.toBeInstanceOf(ErrFull);
      await b.release(ip("10.0.0.3"));
      expect(formatIP(await a.allocateNext())).toBe("10.0.0.3");
      expect(await storedUsed(store)).toBe(6);
    }));

  it("the secondary key is independent of the primary one", () =>
    withStore(backend, async ({ store }) => {
      const v4 = await initialized(store, "10.0.0.0/24");
      const v6 = await initialized(store, "fd00::/120", 1, secondaryServiceIPsKey);
      await v4.allocate(ip("10.0.0.1"));
      await v6.allocate(ip("fd00::1"));
      expect([await storedUsed(store), await storedUsed(store, secondaryServiceIPsKey)]).toEqual([1, 1]);
      expect(v6.ipFamily()).toBe("IPv6");
    }));

  it("dryRun checks the range and never writes", () =>
    withStore(backend, async ({ store }) => {
      const r = await initialized(store, "10.0.0.0/24");
      const before = (await r.get())!.resourceVersion;
      const dry = r.dryRun();
      await dry.allocate(ip("10.0.0.7"));
      await expect(dry.allocate(ip("10.1.0.7"))).rejects.toBeInstanceOf(ErrNotInRange);
      expect(formatIP(await dry.allocateNext())).toBe("10.0.0.0");
      await dry.release(ip("10.0.0.7"));
      expect([(await r.get())!.resourceVersion, r.used(), r.has(ip("10.0.0.7"))]).toEqual([before, 0, false]);
    }));

  it("records the clusterip_allocator metrics by CIDR and scope", () =>
    withStore(backend, async ({ store }) => {
      const m = clusterIPAllocatorMetrics(new MetricsRegistry());
      const r = new StoredRange({ cidr: cidr("10.0.0.0/29"), store, metrics: m });
      await r.ensureInitialized();
      await r.allocate(ip("10.0.0.1"));
      await r.allocate(ip("10.0.0.1")).catch(() => undefined);
      await r.allocate(ip("10.9.0.1")).catch(() => undefined);
      await r.allocateNext();
      const l = { cidr: "10.0.0.0/29" };
      expect(m.allocations.get({ ...l, scope: "static" })).toBe(1);
      expect(m.allocationErrors.get({ ...l, scope: "static" })).toBe(2);
      expect(m.allocations.get({ ...l, scope: "dynamic" })).toBe(1);
      expect([m.allocated.get(l), m.available.get(l)]).toEqual([2, 4]);
      expect(m.allocationDuration.count(l)).toBe(2);
    }));

  it.each(backend === "memory" ? ["one Store"] : ["one Store", "two Store instances"])(
    "two apiservers (%s): 2,000 concurrent allocateNext on a /21, no IP twice, stored bitmap = successes",
    (variant) =>
      withStore(backend, async (t) => {
        // "two Store instances": each apiserver opens the sqlite file / etcd itself, as two processes would.
        const second = variant === "one Store" ? t.store : await reopen(t);
        try {
          const a = await initialized(t.store, "10.1.0.0/21", 11);
          const b = await initialized(second, "10.1.0.0/21", 12);
          // 16 workers per apiserver, each issuing its next allocateNext as soon as the last one
          // returned: the two ranges' batches interleave, so most writes lose a race or restore.
          const ok: string[] = [];
          const failures: string[] = [];
          let issued = 0;
          const worker = async (r: StoredRange): Promise<void> => {
            while (issued < 2000) {
              issued++;
              await r.allocateNext().then(
                (v) => ok.push(formatIP(v)),
                (e: unknown) => failures.push(String(e)),
              );
            }
          };
          await Promise.all(Array.from({ length: 32 }, (_, i) => worker(i % 2 ? a : b)));
          expect(failures).toEqual([]);
          expect(ok.length).toBe(2000);
          expect(new Set(ok).size).toBe(ok.length);
          expect(await storedUsed(t.store)).toBe(ok.length);
          console.log(
            `stored range ${backend}, ${variant}: 2000 allocateNext from 2 ranges, writes a=${a.stats().writes} b=${b.stats().writes}`,
          );
        } finally {
          if (second !== t.store) await second.close();
        }
      }),
  );
});
