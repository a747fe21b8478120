/**
 * Upstream portallocator/controller/repair_test.go (TestRepair, TestRepairLeak,
 * TestRepairWithExisting, TestCollectServiceNodePorts) on a mock RangeRegistry, plus a run over
 * the persisted NodePort allocator on every backend.
 */
import { describe, expect, it } from "vitest";
import type { Service, ServicePort } from "@servicenet/api";
import { FakeRecorder } from "@servicenet/client/tools/events";
import { MetricsRegistry } from "@servicenet/component-base/metrics";
import type { RangeAllocationSnapshot, RangeRegistry } from "../../allocator/storage/keys.ts";
import { rangeBackends, withStore } from "../../allocator/storage/testing.ts";
import { PortAllocator } from "../allocator.ts";
import { parsePortRange } from "../port-range.ts";
import { StoredPortAllocator } from "../stored-port-allocator.ts";
import { nodePortRepairMetrics } from "./metrics.ts";
import { PortRepair, collectServiceNodePorts } from "./repair.ts";

const noSleep = async (): Promise<void> => {};
const pr = parsePortRange("100-200");

class MockRangeRegistry implements RangeRegistry {
  readonly item: RangeAllocationSnapshot | null;
  readonly updateErr: Error | null;
  updated: RangeAllocationSnapshot | null = null;

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

function registryWith(...ports: number[]): MockRangeRegistry {
  const a = new PortAllocator(pr);
  for (const p of ports) a.allocateSync(p);
  return new MockRangeRegistry({ ...a.snapshot(), resourceVersion: "1" });
}

function svc(ns: string, ports: Partial<ServicePort>[], healthCheckNodePort?: number): Service {
  return {
    metadata: { namespace: ns, name: ns },
    spec: { ports: ports.map((p, i) => ({ port: 80 + i, ...p })), ...(healthCheckNodePort ? { healthCheckNodePort } : {}) },
  };
}

const after = (r: MockRangeRegistry): PortAllocator => PortAllocator.fromSnapshot(r.updated!);

function repair(services: Service[], alloc: RangeRegistry) {
  const recorder = new FakeRecorder();
  const metrics = nodePortRepairMetrics(new MetricsRegistry());
  return {
    r: new PortRepair({ listServices: async () => services, portRange: pr, alloc, recorder, metrics, sleep: noSleep }),
    recorder,
    metrics,
  };
}

describe("NodePort Repair (upstream repair_test.go)", () => {
  it("TestRepair: writes the range; an update error surfaces", async () => {
    const reg = new MockRangeRegistry({ range: "100-200", data: "" });
    await repair([], reg).r.runOnce();
    expect(reg.updated?.range).toBe("100-200");
    const failing = repair([], new MockRangeRegistry({ range: "100-200", data: "" }, new Error("test error")));
    await expect(failing.r.runOnce()).rejects.toThrow(": test error");
    expect(failing.metrics.reconcileErrors.get()).toBe(1);
  });

  it("TestRepairLeak: an unreferenced port is freed on the third run", async () => {
    const reg = registryWith(111);
    const { r, metrics } = repair([], reg);
    for (let i = 0; i < 2; i++) {
      await r.runOnce();
      expect(after(reg).has(111)).toBe(true);
    }
    await r.runOnce();
    expect(after(reg).has(111)).toBe(false);
    expect(metrics.portErrors.get({ type: "leak" })).toBe(1);
  });

  it("TestRepairWithExisting: rebuilds from Services and reports each problem", async () => {
    const reg = registryWith();
    const services = [
      svc("one", [{ nodePort: 111 }]),
      svc("two", [{ nodePort: 122 }, { nodePort: 133 }]),
      svc("three", [{ nodePort: 201 }]), // outside range, will be dropped
      svc("four", [{}]), // empty, ignored
      svc("five", [{ nodePort: 111 }]), // duplicate, dropped
      svc("six", [], 144), // healthCheckNodePort only
    ];
    const { r, recorder, metrics } = repair(services, reg);
    await r.runOnce();
    const a = after(reg);
    expect([a.has(111), a.has(122), a.has(133), a.has(144), a.free()]).toEqual([true, true, true, true, 97]);
    expect(recorder.events).toEqual([
      "Warning PortNotAllocated Port 111 is not allocated; repairing",
      "Warning PortNotAllocated Port 122 is not allocated; repairing",
      "Warning PortNotAllocated Port 133 is not allocated; repairing",
      "Warning PortOutOfRange Port 201 is not within the port range 100-200; please recreate service",
      "Warning PortAlreadyAllocated Port 111 was assigned to multiple services; please recreate service",
      "Warning PortNotAllocated Port 144 is not allocated; repairing",
    ]);
    expect(["repair", "outOfRange", "duplicate"].map((type) => metrics.portErrors.get({ type }))).toEqual([4, 1, 1]);
  });

  it.each([
    {
      name: "no duplicated nodePorts",
      ports: [
        { nodePort: 111, protocol: "TCP" },
        { nodePort: 112, protocol: "UDP" },
      ],
      hc: 0,
      want: [111, 112],
    },
    {
      name: "same nodePort, same protocol: listed twice",
      ports: [
        { nodePort: 111, protocol: "TCP" },
        { nodePort: 111, protocol: "TCP" },
      ],
      hc: 0,
      want: [111, 111],
    },
    {
      name: "same nodePort, different protocols: listed once",
      ports: [
        { nodePort: 111, protocol: "TCP" },
        { nodePort: 111, protocol: "UDP" },
      ],
      hc: 0,
      want: [111],
    },
    { name: "healthCheckNodePort distinct", ports: [{ nodePort: 111, protocol: "TCP" }], hc: 150, want: [111, 150] },
    { name: "healthCheckNodePort equal to a TCP nodePort", ports: [{ nodePort: 111, protocol: "TCP" }], hc: 111, want: [111, 111] },
    { name: "healthCheckNodePort equal to a UDP nodePort", ports: [{ nodePort: 111, protocol: "UDP" }], hc: 111, want: [111] },
  ])("TestCollectServiceNodePorts: $name", ({ ports, hc, want }) => {
    expect(collectServiceNodePorts(svc("x", ports, hc))).toEqual(want);
  });
});

describe.each(rangeBackends())("NodePort Repair over StoredPortAllocator on %s", (backend) => {
  it("creates the bitmap, restores a lost port, frees a leak after three runs", () =>
    withStore(backend, async ({ store }) => {
      const ports = new StoredPortAllocator({ portRange: pr, store });
      const recorder = new FakeRecorder();
      const r = new PortRepair({
        listServices: async () => [svc("a", [{ nodePort: 150 }])],
        portRange: pr,
        alloc: ports,
        recorder,
        sleep: noSleep,
      });
      await r.runOnce();
      expect(ports.has(150)).toBe(true);
      await ports.allocate(160);
      await ports.release(150);
      for (let i = 0; i < 3; i++) await r.runOnce();
      const fresh = new StoredPortAllocator({ portRange: pr, store });
      await fresh.release(100);
      expect([fresh.has(150), fresh.has(160), fresh.used()]).toEqual([true, false, 1]);
      expect(recorder.events).toEqual([
        "Warning PortNotAllocated Port 150 is not allocated; repairing",
        "Warning PortNotAllocated Port 150 is not allocated; repairing",
      ]);
    }));
});
