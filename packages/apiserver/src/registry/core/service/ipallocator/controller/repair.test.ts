/**
 * Upstream ipallocator/controller/repair_test.go (TestRepair, TestRepairLeak,
 * TestRepairWithExisting, TestShouldWorkOnSecondary and the DualStack variants) on a mock
 * RangeRegistry, plus the loop over real StoredRanges on every backend.
 */
import { describe, expect, it } from "vitest";
import { StatusError, parseCIDRSloppy, parseIPSloppy, type CIDR, type Service } from "@servicenet/api";
import { FakeRecorder } from "@servicenet/client/tools/events";
import { MetricsRegistry } from "@servicenet/component-base/metrics";
import type { RangeAllocationSnapshot, RangeRegistry } from "../../allocator/storage/keys.ts";
import { rangeBackends, withStore } from "../../allocator/storage/testing.ts";
import { Range } from "../bitmap.ts";
import { ErrFull } from "../interfaces.ts";
import { clusterIPRepairMetrics } from "../metrics.ts";
import { StoredRange } from "../stored-range.ts";
import { Repair } from "./repair.ts";

const cidr = (s: string): CIDR => parseCIDRSloppy(s)!;
const noSleep = async (): Promise<void> => {};

class MockRangeRegistry implements RangeRegistry {
  item: RangeAllocationSnapshot | null;
  updated: RangeAllocationSnapshot | null = null;
  updateErr: Error | null = null;

  constructor(item: RangeAllocationSnapshot | null, updateErr: Error | null = null) {
    this.item = item;
    this.updateErr = updateErr;
  }

  async get(): Promise<RangeAllocationSnapshot | null> {
    return this.item && { ...this.item };
  }

  async createOrUpdate(s: RangeAllocationSnapshot): Promise<void> {
    this.updated = s;
    if (this.updateErr) throw this.updateErr;
  }
}

/** A registry holding `c` with `ips` allocated at resourceVersion "1" (makeRangeRegistry). */
function registryWith(c: string, ...ips: string[]): MockRangeRegistry {
  const r = Range.fromCIDRString(c);
  for (const ip of ips) r.allocateSync(parseIPSloppy(ip)!);
  return new MockRangeRegistry({ ...r.snapshot(), resourceVersion: "1" });
}

function svc(ns: string, name: string, ...clusterIPs: string[]): Service {
  return { metadata: { namespace: ns, name }, spec: { clusterIP: clusterIPs[0] ?? "", clusterIPs } };
}

const after = (r: MockRangeRegistry): Range => Range.fromSnapshot(r.updated!);

function repair(services: Service[], primary: [string, RangeRegistry], secondary?: [string, RangeRegistry], quiet = false) {
  const recorder = new FakeRecorder();
  const metrics = clusterIPRepairMetrics(new MetricsRegistry());
  const r = new Repair({
    listServices: async () => services,
    network: cidr(primary[0]),
    alloc: primary[1],
    secondaryNetwork: secondary ? cidr(secondary[0]) : null,
    secondaryAlloc: secondary?.[1] ?? null,
    recorder,
    metrics,
    sleep: noSleep,
    quiet,
  });
  return { r, recorder, metrics };
}

describe("ClusterIP Repair (upstream repair_test.go)", () => {
  it.each([
    { name: "single stack", nets: ["192.168.1.0/24"] },
    { name: "dual stack", nets: ["192.168.1.0/24", "2000::/108"] },
  ])("TestRepair ($name): writes the range even when never initialised; an update error surfaces", async ({ nets }) => {
    const regs = nets.map(() => new MockRangeRegistry({ range: nets[0]!, data: "" }));
    regs.forEach((reg, i) => (reg.item = { range: nets[i]!, data: "" }));
    const { r } = repair([], [nets[0]!, regs[0]!], nets[1] ? [nets[1], regs[1]!] : undefined);
    await r.runOnce();
    regs.forEach((reg, i) => expect(reg.updated?.range).toBe(nets[i]));
    const failing = nets.map((n) => new MockRangeRegistry({ range: n, data: "" }, new Error("test error")));
    const f = repair([], [nets[0]!, failing[0]!], nets[1] ? [nets[1], failing[1]!] : undefined);
    await expect(f.r.runOnce()).rejects.toThrow(": test error");
    expect(f.metrics.reconcileErrors.get()).toBe(1);
  });

  it.each([
    { name: "IPv4", nets: [["192.168.1.0/24", "192.168.1.10"]] },
    {
      name: "dual stack",
      nets: [
        ["192.168.1.0/24", "192.168.1.10"],
        ["2000::/108", "2000::1"],
      ],
    },
  ])("TestRepairLeak ($name): an unreferenced IP is freed on the third run", async ({ nets }) => {
    const regs = nets.map(([c, ip]) => registryWith(c!, ip!));
    const { r, metrics } = repair([], [nets[0]![0]!, regs[0]!], nets[1] ? [nets[1][0]!, regs[1]!] : undefined);
    for (let i = 0; i < 2; i++) {
      await r.runOnce();
      regs.forEach((reg, j) => expect(after(reg).has(parseIPSloppy(nets[j]![1]!)!)).toBe(true));
    }
    await r.runOnce();
    regs.forEach((reg, j) => expect(after(reg).has(parseIPSloppy(nets[j]![1]!)!)).toBe(false));
    expect(metrics.ipErrors.get({ type: "leak" })).toBe(nets.length);
  });

  it("TestRepairWithExisting: rebuilds from Services and reports each problem", async () => {
    const reg = registryWith("192.168.1.0/24");
    const services = [
      svc("one", "one", "192.168.1.1"),
      svc("two", "two", "192.168.1.100"),
      svc("three", "three", "192.168.0.1"), // outside CIDR, will be dropped
      svc("four", "four", ""), // empty, ignored
      svc("five", "five", "192.168.1.1"), // duplicate, dropped
      svc("six", "six", "None"), // headless
      svc("seven", "seven", "not-an-ip"),
    ];
    const { r, recorder, metrics } = repair(services, ["192.168.1.0/24", reg]);
    await r.runOnce();
    const a = after(reg);
    expect([a.has(parseIPSloppy("192.168.1.1")!), a.has(parseIPSloppy("192.168.1.100")!), a.free()]).toEqual([true, true, 252]);
    expect(recorder.events).toEqual([
      "Warning ClusterIPNotAllocated Cluster IP [IPv4]:192.168.1.1 is not allocated; repairing",
      "Warning ClusterIPNotAllocated Cluster IP [IPv4]:192.168.1.100 is not allocated; repairing",
      "Warning ClusterIPOutOfRange Cluster IP [IPv4]:192.168.0.1 is not within the service CIDR 192.168.1.0/24; please recreate service",
      "Warning ClusterIPAlreadyAllocated Cluster IP [IPv4]:192.168.1.1 was assigned to multiple services; please recreate service",
      "Warning ClusterIPNotValid Cluster IP not-an-ip is not a valid IP; please recreate service",
    ]);
    expect(["repair", "outOfRange", "duplicate", "invalid"].map((type) => metrics.ipErrors.get({ type }))).toEqual([2, 1, 1, 1]);
  });

  it("quiet (the dual-write bitmap upkeep): the same bitmap, no events, no error metrics", async () => {
    const reg = registryWith("192.168.1.0/24", "192.168.1.50");
    const services = [svc("one", "one", "192.168.1.1"), svc("three", "three", "10.5.0.1"), svc("five", "five", "192.168.1.1")];
    const { r, recorder, metrics } = repair(services, ["192.168.1.0/24", reg], undefined, true);
    for (let i = 0; i < 3; i++) {
      await r.runOnce();
      reg.item = reg.updated!;
    }
    const a = after(reg);
    // 192.168.1.50 (held by nobody) is freed after the third run, as in the loud mode.
    expect([a.has(parseIPSloppy("192.168.1.1")!), a.has(parseIPSloppy("192.168.1.50")!)]).toEqual([true, false]);
    expect(recorder.events).toEqual([]);
    expect(["repair", "outOfRange", "duplicate"].map((type) => metrics.ipErrors.get({ type }))).toEqual([0, 0, 0]);
  });

  it("TestRepairWithExistingDualStack: each family's bitmap gets its own IPs; an unconfigured family is reported", async () => {
    const v4 = registryWith("192.168.1.0/24");
    const v6 = registryWith("2000::/108", "2000::2");
    const services = [
      svc("x1", "one-v4-v6", "192.168.1.1", "2000::1"),
      svc("x2", "one-v6-v4", "2000::1", "192.168.1.100"),
      svc("x3", "two-6", "2000::2"),
      svc("x4", "two-4", "192.168.1.90"),
      svc("x5", "out-v4", "192.168.0.1"),
      svc("x6", "out-v6", "3000::1"),
    ];
    const { r, recorder } = repair(services, ["192.168.1.0/24", v4], ["2000::/108", v6]);
    await r.runOnce();
    expect([after(v4).used(), after(v6).used()]).toEqual([3, 2]);
    expect(recorder.events.filter((e) => e.includes("ClusterIPAlreadyAllocated"))).toEqual([
      "Warning ClusterIPAlreadyAllocated Cluster IP [IPv6]:2000::1 was assigned to multiple services; please recreate service",
    ]);
    expect(recorder.events.filter((e) => e.includes("OutOfRange"))).toHaveLength(2);
    const single = repair(services.slice(0, 1), ["192.168.1.0/24", registryWith("192.168.1.0/24")]);
    await single.r.runOnce();
    expect(single.recorder.events).toContain(
      "Warning ClusterIPNotValid Cluster IP 2000::1(IPv6) is of ip family that is no longer configured on cluster; please recreate service",
    );
  });

  it.each([
    { name: "primary only (v4)", primary: "10.0.0.0/16", secondary: null, families: ["IPv4"] },
    { name: "primary only (v6)", primary: "2000::/120", secondary: null, families: ["IPv6"] },
    { name: "primary and secondary provided (v4,v6)", primary: "10.0.0.0/16", secondary: "2000::/120", families: ["IPv4", "IPv6"] },
    { name: "primary and secondary provided (v6,v4)", primary: "2000::/120", secondary: "10.0.0.0/16", families: ["IPv6", "IPv4"] },
  ])("TestShouldWorkOnSecondary: $name", ({ primary, secondary, families }) => {
    const { r } = repair([], [primary, registryWith(primary)], secondary ? [secondary, registryWith(secondary)] : undefined);
    expect(r.families()).toEqual(families);
  });

  it("ServiceCIDRFull aborts the run with upstream's message", async () => {
    const recorder = new FakeRecorder();
    const full = Range.fromCIDRString("10.0.0.0/24");
    full.allocateSync = () => {
      throw new ErrFull();
    };
    const r = new Repair({
      listServices: async () => [svc("a", "a", "10.0.0.5")],
      network: cidr("10.0.0.0/24"),
      alloc: registryWith("10.0.0.0/24"),
      recorder,
      sleep: noSleep,
      newRange: () => full,
    });
    await expect(r.runOnce()).rejects.toThrow(
      "the service CIDR 10.0.0.0/24 is full; you must widen the CIDR in order to create new services for Cluster IP [IPv4]:10.0.0.5",
    );
    expect(recorder.events).toEqual([
      "Warning ServiceCIDRFull Service CIDR 10.0.0.0/24 is full; you must widen the CIDR in order to create new services for Cluster IP [IPv4]:10.0.0.5",
    ]);
  });

  it("a conflicting write is retried with a fresh snapshot", async () => {
    const reg = registryWith("10.0.0.0/24");
    let conflicts = 1;
    const inner = reg.createOrUpdate.bind(reg);
    reg.createOrUpdate = async (s) => {
      if (conflicts-- > 0)
        throw StatusError.conflict({ group: "", resource: "serviceipallocations" }, "", "the provided resource version does not match");
      return inner(s);
    };
    const { r } = repair([svc("a", "a", "10.0.0.5")], ["10.0.0.0/24", reg]);
    await r.runOnce();
    expect(after(reg).has(parseIPSloppy("10.0.0.5")!)).toBe(true);
  });

  it("runUntil calls onFirstSuccess once and keeps going after errors until aborted", async () => {
    const reg = registryWith("10.0.0.0/24");
    let calls = 0;
    const listServices = async (): Promise<Service[]> => {
      if (++calls === 1) throw new Error("etcd down");
      return [];
    };
    const ctl = new AbortController();
    let first = 0;
    const errors: string[] = [];
    const r = new Repair({
      listServices,
      network: cidr("10.0.0.0/24"),
      alloc: reg,
      recorder: new FakeRecorder(),
      logger: { info: (m) => errors.push(m), error: (m) => errors.push(m), verbosity: 2 },
      intervalMs: 180_000,
      sleep: async () => void (calls >= 4 && ctl.abort()),
    });
    await r.runUntil(() => first++, ctl.signal);
    expect([first, calls]).toEqual([1, 4]);
    expect(errors[0]).toBe("unable to refresh the service IP block: etcd down");
  });
});

describe.each(rangeBackends())("ClusterIP Repair over StoredRange on %s", (backend) => {
  it("creates the bitmap, restores a lost bit, frees a leak after three runs", () =>
    withStore(backend, async ({ store }) => {
      const range = new StoredRange({ cidr: cidr("10.0.0.0/24"), store });
      const services = [svc("a", "a", "10.0.0.10")];
      const recorder = new FakeRecorder();
      const r = new Repair({ listServices: async () => services, network: cidr("10.0.0.0/24"), alloc: range, recorder, sleep: noSleep });
      await r.runOnce(); // legacy: the repair creates the RangeAllocation
      expect(range.has(parseIPSloppy("10.0.0.10")!)).toBe(true);
      await range.allocate(parseIPSloppy("10.0.0.20")!); // allocated, never used by a Service
      await range.release(parseIPSloppy("10.0.0.10")!); // bit lost by hand
      for (let i = 0; i < 3; i++) await r.runOnce();
      const fresh = new StoredRange({ cidr: cidr("10.0.0.0/24"), store });
      await fresh.release(parseIPSloppy("10.0.0.1")!);
      expect([fresh.has(parseIPSloppy("10.0.0.10")!), fresh.has(parseIPSloppy("10.0.0.20")!), fresh.used()]).toEqual([true, false, 1]);
      expect(recorder.events.filter((e) => e.includes("ClusterIPNotAllocated"))).toHaveLength(2);
    }));
});

describe("ClusterIP Repair with non-canonical ClusterIPs", () => {
  it("keys the bitmap on the parsed address: a held odd spelling is neither repaired nor leaked, a second spelling is a duplicate", async () => {
    const v4 = registryWith("192.168.1.0/24", "192.168.1.10", "192.168.1.11");
    const v6 = registryWith("2000::/108", "2000::a");
    const services = [
      svc("ns", "zeros", "192.168.001.010", "2000:0:0::000A"),
      svc("ns", "mapped", "::ffff:192.168.1.11"),
      svc("ns", "twin", "192.168.1.10"),
    ];
    const { r, recorder, metrics } = repair(services, ["192.168.1.0/24", v4], ["2000::/108", v6]);
    // Past the three-run leak hold-off: nothing a Service holds may be freed.
    for (let i = 0; i < 4; i++) {
      await r.runOnce();
      v4.item = { ...v4.updated!, resourceVersion: "1" };
      v6.item = { ...v6.updated!, resourceVersion: "1" };
    }
    expect(after(v4).has(parseIPSloppy("192.168.1.10")!)).toBe(true);
    expect(after(v4).has(parseIPSloppy("192.168.1.11")!)).toBe(true);
    expect(after(v6).has(parseIPSloppy("2000::a")!)).toBe(true);
    expect(after(v4).used() + after(v6).used()).toBe(3);
    expect(new Set(recorder.events)).toEqual(
      new Set([
        "Warning ClusterIPAlreadyAllocated Cluster IP [IPv4]:192.168.1.10 was assigned to multiple services; please recreate service",
      ]),
    );
    expect(metrics.ipErrors.get({ type: "repair" })).toBe(0);
    expect(metrics.ipErrors.get({ type: "leak" })).toBe(0);
  });
});
