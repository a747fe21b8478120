/** `--endpointslice-updates-batch-period`: Pod changes are queued after the period (upstream addPod/updatePod AddAfter). */
import type { EndpointSlice, Pod, Service } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { FakeClock } from "@servicenet/component-base/clock";
import { describe, expect, it } from "vitest";
import { dualStackPods, makeService } from "../testing/fixtures.ts";
import { EndpointSliceController } from "./endpointslice-controller.ts";

function controller(batchMs: number, clock: FakeClock) {
  const pods = new MemoryInformer<Pod>();
  const c = new EndpointSliceController({
    services: new MemoryInformer<Service>([makeService()]),
    pods,
    slices: new MemoryInformer<EndpointSlice>(),
    client: { create: (_ns, s) => Promise.resolve(s), update: (_ns, s) => Promise.resolve(s), delete: () => Promise.resolve() },
    endpointUpdatesBatchPeriodMs: batchMs,
    clock,
  });
  return { c, pods };
}

describe("EndpointSlice updates batch period", () => {
  it("a Pod change is queued only once the batch period has passed; several changes make one item", async () => {
    const clock = new FakeClock(1_000_000);
    const { c, pods } = controller(1000, clock);
    const service = await c.queue.get(); // the Service add
    if (service !== undefined) c.queue.done(service);
    for (const p of dualStackPods(3)) pods.set(p);
    expect(c.queue.len()).toBe(0);
    clock.step(999);
    expect(c.queue.len()).toBe(0);
    clock.step(1);
    expect(c.queue.len()).toBe(1);
  });

  it("without a batch period a Pod change is queued at once", () => {
    const clock = new FakeClock(1_000_000);
    const { c, pods } = controller(0, clock);
    pods.set(dualStackPods(1)[0]!);
    expect(c.queue.len()).toBe(1);
  });
});
