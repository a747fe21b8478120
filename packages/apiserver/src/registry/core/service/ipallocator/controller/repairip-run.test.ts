import { StatusError } from "@servicenet/api";
import { afterEach, describe, expect, it } from "vitest";
import { objectKey } from "../../../../../storage/index.ts";
import { eventually } from "@servicenet/testing";
import {
  newFakeRepair,
  newIPAddress,
  newService,
  newServiceCIDR,
  seconds,
  serviceCIDRv4,
  serviceCIDRv6,
  testTimeNow,
  type FakeRepair,
} from "./repairip-testing.ts";

const kubernetes = newServiceCIDR("kubernetes", serviceCIDRv4, serviceCIDRv6);
const forbidden = (name: string): StatusError =>
  StatusError.forbidden({ group: "networking.k8s.io", resource: "ipaddresses" }, name, "not yet ready to handle request");

describe("RepairIPAddress.runUntil", () => {
  let f: FakeRepair | undefined;
  let ac: AbortController;
  afterEach(async () => {
    ac?.abort();
    await f?.close();
    f = undefined;
  });

  it("TestRunUntilSucceedsOnFirstAttempt, then repairs Services created later through the workers", async () => {
    f = await newFakeRepair({
      cidrs: [kubernetes],
      svcs: [newService("test-svc", ["10.0.1.1"])],
      ipAddresses: [newIPAddress("10.0.1.1", "test-svc")],
    });
    ac = new AbortController();
    let first = 0;
    const run = f.repair.runUntil(() => first++, ac.signal);
    expect(await eventually(() => first === 1)).toBe(true);
    expect(f.actions).toEqual([]);
    // A bitmap-era Service (no IPAddress) appears: the service worker creates its IPAddress.
    await f.store.create(objectKey("services/specs", "bar", "late"), newService("late", ["10.0.2.2"]));
    expect(await eventually(async () => (await f!.raw.get("10.0.2.2")) !== null)).toBe(true);
    expect(f.recorder.events).toEqual(["Warning ClusterIPNotAllocated Cluster IP [IPv4]: 10.0.2.2 is not allocated; repairing"]);
    ac.abort();
    await run;
  });

  it("deletes an orphan IPAddress only once the 60 s grace from its creationTimestamp has passed", async () => {
    f = await newFakeRepair({
      cidrs: [kubernetes],
      ipAddresses: [newIPAddress("10.0.1.1", "never-created")],
      testTime: testTimeNow + seconds(10),
    });
    ac = new AbortController();
    let first = false;
    const run = f.repair.runUntil(() => (first = true), ac.signal);
    expect(await eventually(() => first)).toBe(true);
    expect(f.actions).toEqual([]);
    f.clock.step(seconds(49)); // 59 s old: requeued for the remaining second, still kept
    await new Promise((r) => setTimeout(r, 20));
    expect(await f.raw.get("10.0.1.1")).not.toBeNull();
    f.clock.step(seconds(1)); // 60 s old
    expect(await eventually(async () => (await f!.raw.get("10.0.1.1")) === null)).toBe(true);
    expect(f.recorder.events).toEqual([
      "Warning IPAddressNotAllocated IPAddress: 10.0.1.1 for Service bar/never-created appears to have leaked: cleaning up",
    ]);
    ac.abort();
    await run;
  });

  it("TestRunUntilRetryOnError: retries a first pass rejected as Forbidden", async () => {
    let attempts = 0;
    f = await newFakeRepair({
      cidrs: [kubernetes],
      svcs: [newService("test-svc", ["10.0.1.1"])],
      client: (c) => ({ ...c, create: (o) => (++attempts <= 2 ? Promise.reject(forbidden(o.metadata.name ?? "")) : c.create(o)) }),
    });
    ac = new AbortController();
    let first = false;
    const run = f.repair.runUntil(() => (first = true), ac.signal);
    for (let i = 0; i < 2; i++) {
      expect(await eventually(() => f!.clock.waiters() > 0)).toBe(true);
      expect(first).toBe(false);
      f.clock.step(seconds(1));
    }
    expect(await eventually(() => first)).toBe(true);
    expect(attempts).toBe(3);
    expect(f.metrics.reconcileErrors.get()).toBe(2);
    expect(await f.raw.get("10.0.1.1")).not.toBeNull();
    ac.abort();
    await run;
  });

  it("TestRunUntilExitsOnContextCancellation: never calls onFirstSuccess when stopped before a first success", async () => {
    f = await newFakeRepair({
      cidrs: [kubernetes],
      svcs: [newService("test-svc", ["10.0.1.1"])],
      client: (c) => ({ ...c, create: (o) => Promise.reject(forbidden(o.metadata.name ?? "")) }),
    });
    ac = new AbortController();
    let first = false;
    const run = f.repair.runUntil(() => (first = true), ac.signal);
    expect(await eventually(() => f!.clock.waiters() > 0)).toBe(true);
    ac.abort();
    await run;
    expect(first).toBe(false);
  });

  it("rejects when the first pass fails with anything but Forbidden", async () => {
    f = await newFakeRepair({
      cidrs: [kubernetes],
      svcs: [newService("test-svc", ["10.0.1.1"])],
      client: (c) => ({ ...c, create: () => Promise.reject(StatusError.internal("etcd is gone")) }),
    });
    ac = new AbortController();
    await expect(f.repair.runUntil(() => {}, ac.signal)).rejects.toThrow("etcd is gone");
  });

  it("waits for the default ServiceCIDR before the first pass", async () => {
    f = await newFakeRepair({ svcs: [newService("test-svc", ["10.0.1.1"])] });
    ac = new AbortController();
    let first = false;
    const run = f.repair.runUntil(() => (first = true), ac.signal);
    expect(await eventually(() => f!.clock.waiters() > 0)).toBe(true);
    f.clock.step(100);
    expect(first).toBe(false);
    await f.store.create(objectKey("servicecidrs", undefined, "kubernetes"), kubernetes);
    expect(await eventually(() => f!.informers[1]!.get("kubernetes") !== undefined)).toBe(true);
    expect(await eventually(() => (f!.clock.step(100), first))).toBe(true);
    // The Service's IP was checked against the new CIDR: repaired, not reported out of range.
    expect(f.recorder.events).toEqual(["Warning ClusterIPNotAllocated Cluster IP [IPv4]: 10.0.1.1 is not allocated; repairing"]);
    ac.abort();
    await run;
  });

  it("follows ServiceCIDR changes through the servicecidrs worker", async () => {
    f = await newFakeRepair({ cidrs: [kubernetes] });
    ac = new AbortController();
    let first = false;
    const run = f.repair.runUntil(() => (first = true), ac.signal);
    expect(await eventually(() => first)).toBe(true);
    await f.store.create(objectKey("servicecidrs", undefined, "extra"), newServiceCIDR("extra", "192.168.5.0/24"));
    await new Promise((r) => setTimeout(r, 50));
    await f.store.create(objectKey("services/specs", "bar", "s"), newService("s", ["192.168.5.5"]));
    expect(await eventually(async () => (await f!.raw.get("192.168.5.5")) !== null)).toBe(true);
    expect(f.recorder.events).toEqual(["Warning ClusterIPNotAllocated Cluster IP [IPv4]: 192.168.5.5 is not allocated; repairing"]);
    ac.abort();
    await run;
  });

  it("waits for informers that report their sync instead of sleeping a poll period (no clock step needed)", async () => {
    f = await newFakeRepair({ cidrs: [kubernetes], unstarted: true });
    ac = new AbortController();
    let first = false;
    const run = f.repair.runUntil(() => (first = true), ac.signal);
    for (const i of f.informers) i.start();
    // The fake clock never moves: a 100 ms cache-sync poll would never end.
    expect(await eventually(() => first)).toBe(true);
    ac.abort();
    await run;
  });
});
