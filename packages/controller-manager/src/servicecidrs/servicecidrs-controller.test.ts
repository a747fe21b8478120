import { describe, expect, it } from "vitest";
import type { IPAddress, ServiceCIDR } from "@servicenet/api";
import { FakeClock } from "@servicenet/component-base/clock";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { ServiceCIDRController, type ServiceCIDRClient } from "./servicecidrs-controller.ts";

const finalizer = "networking.k8s.io/service-cidr-finalizer";

function setup(start: ServiceCIDR) {
  const clock = new FakeClock(Date.parse("2026-01-01T00:00:00Z"));
  const cidrs = new MemoryInformer<ServiceCIDR>([start]);
  const ips = new MemoryInformer<IPAddress>([]);
  const writes: string[] = [];
  const client: ServiceCIDRClient = {
    async updateFinalizers(sc, finalizers) {
      writes.push(`finalizers=${finalizers.join(",")}`);
      const next = { ...sc, metadata: { ...sc.metadata, finalizers } };
      cidrs.set(next);
      return next;
    },
    async updateStatus(sc) {
      const c = sc.status?.conditions?.[0];
      writes.push(`Ready=${c?.status}/${c?.reason}`);
      cidrs.set(sc);
      return sc;
    },
  };
  return { clock, cidrs, ips, writes, c: new ServiceCIDRController({ serviceCIDRs: cidrs, ipAddresses: ips, client, clock }) };
}

describe("ServiceCIDRController.sync", () => {
  it("adds the finalizer and Ready=True once, then is idempotent", async () => {
    const { c, writes } = setup({ metadata: { name: "extra" }, spec: { cidrs: ["10.1.0.0/24"] } });
    await c.sync("extra");
    await c.sync("extra");
    expect(writes).toEqual([`finalizers=${finalizer}`, "Ready=True/"]);
  });

  it("blocks while an IPAddress is only in it, then releases after the grace period", async () => {
    const deleting: ServiceCIDR = {
      metadata: { name: "extra", finalizers: [finalizer], deletionTimestamp: "2026-01-01T00:00:00Z" },
      spec: { cidrs: ["10.1.0.0/24"] },
    };
    const { c, clock, ips, writes } = setup(deleting);
    const ipa: IPAddress = {
      metadata: { name: "10.1.0.7", labels: { "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io" } },
      spec: {},
    };
    ips.set(ipa);
    await c.sync("extra");
    expect(writes).toEqual(["Ready=False/Terminating"]);
    ips.remove("10.1.0.7"); // the IPAddress delete event enqueues the ServiceCIDR
    const next = await c.queue.get();
    expect(next).toBe("extra");
    c.queue.done("extra");
    clock.step(4_000);
    await c.sync("extra");
    expect(writes).toHaveLength(1); // still in the grace period: requeued after 6 s, no write
    clock.step(5_999);
    expect(c.queue.len()).toBe(0);
    clock.step(1);
    expect(c.queue.len()).toBe(1);
    await c.sync("extra");
    expect(writes.at(-1)).toBe("finalizers=");
  });
});
