/**
 * Repair: what people break by hand is put back by the apiserver's repair
 * loops (`--repair-interval 2s`), observed through storage and Events only.
 * - dual-write apiserver (RepairIPAddress): deleted IPAddress objects are recreated, IPAddresses
 *   with corrupted labels are recreated, orphans (managed-by label, parentRef to a Service that
 *   never existed) are collected after the 60 s grace, and a Service whose IP no ServiceCIDR
 *   covers (written straight into storage; or left behind by force-removing its ServiceCIDR's
 *   finalizer) gets `ClusterIPOutOfRange`.
 * - bitmap-only apiserver (legacy Repair): bits cleared in /registry/ranges/serviceips come back
 *   (`ClusterIPNotAllocated`), bits set for no Service are freed after 3 passes, and a stored
 *   Service outside the range gets `ClusterIPOutOfRange`.
 * The orphans are made first so that their 60 s run while the other cases do.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ipAddressesPath,
  createServiceCIDR,
  createServices,
  dropFinalizers,
  eventWithReason,
  getServiceCIDR,
  managedIPAddress,
  serviceCIDRsPath,
  writeServiceToStorage,
} from "./api.ts";
import { gates, sharedCluster, until, upArgs, type Member, type SharedCluster } from "./shared-cluster.ts";
import { decodeRangeAllocation, encodeRangeAllocation, readBitmap, serviceIPsKey } from "./storage-audit.ts";
import { service } from "./workload.ts";

const range = "10.96.0.0/24";
const orphanIPs = ["10.96.0.200", "10.96.0.201", "10.96.0.202"];
const results: string[] = [];

let ipCluster: SharedCluster | undefined;
let bmCluster: SharedCluster | undefined;
let ip: Member;
let bm: Member;
let orphansMadeAt = 0;

beforeAll(async () => {
  ipCluster = await sharedCluster({ name: "sqlite" }, "repair-ip");
  ip = await ipCluster.add("dual-write", upArgs(gates.dualWrite, range));
  for (const [k, a] of orphanIPs.entries()) {
    const r = await ip.client.call("POST", ipAddressesPath, managedIPAddress(a, { namespace: "default", name: `ghost-${k}` }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
  orphansMadeAt = performance.now();
  bmCluster = await sharedCluster({ name: "sqlite" }, "repair-bm");
  bm = await bmCluster.add("bitmap", upArgs(gates.bitmap, range));
});

afterAll(async () => {
  console.log(`e2e skew/repair: ${results.join("; ")}`);
  await ipCluster?.stop();
  await bmCluster?.stop();
});

describe("RepairIPAddress (dual-write apiserver)", () => {
  it("recreates IPAddress objects deleted or relabelled by hand (ClusterIPNotAllocated)", async () => {
    const ips = await createServices(
      ip.client,
      Array.from({ length: 10 }, (_, i) => service(`fix-${i}`)),
    );
    const victims = [...ips].slice(0, 6);
    const t = performance.now();
    for (const [, [a]] of victims.slice(0, 4)) expect((await ip.client.call("DELETE", `${ipAddressesPath}/${a}`)).status).toBe(200);
    // Corrupt the family label of two (labels are mutable; parentRef is not).
    for (const [, [a]] of victims.slice(4)) {
      const cur = (await ip.client.call("GET", `${ipAddressesPath}/${a}`)).body;
      cur.metadata.labels["ipaddress.kubernetes.io/ip-family"] = "IPv6";
      expect((await ip.client.call("PUT", `${ipAddressesPath}/${a}`, cur)).status).toBe(200);
    }
    await until(
      "IPAddresses restored",
      async () => {
        for (const [name, [a]] of victims) {
          const r = await ip.client.call("GET", `${ipAddressesPath}/${a}`);
          if (
            r.status !== 200 ||
            r.body.spec.parentRef.name !== name ||
            r.body.metadata.labels["ipaddress.kubernetes.io/ip-family"] !== "IPv4"
          )
            return undefined;
        }
        return true;
      },
      30_000,
    );
    const ms = Math.round(performance.now() - t);
    const ev = await until(
      "ClusterIPNotAllocated event",
      () => eventWithReason(ip.client, "default", "Service", victims[0]![0], "ClusterIPNotAllocated"),
      10_000,
    );
    expect(ev.message).toBe(`Cluster IP [IPv4]: ${victims[0]![1][0]} is not allocated; repairing`);
    results.push(`4 deleted + 2 relabelled IPAddresses restored in ${ms} ms`);
  });

  it("reports ClusterIPOutOfRange for a stored Service outside every ServiceCIDR (written to storage)", async () => {
    const store = await ipCluster!.store();
    const t = performance.now();
    await writeServiceToStorage(store, "outside", "10.250.0.5");
    const ev = await until(
      "ClusterIPOutOfRange event",
      () => eventWithReason(ip.client, "default", "Service", "outside", "ClusterIPOutOfRange"),
      20_000,
    );
    expect(ev.type).toBe("Warning");
    expect(ev.message).toBe("Cluster IP [IPv4]: 10.250.0.5 is not within any configured Service CIDR; please recreate service");
    expect((await ip.client.call("GET", `${ipAddressesPath}/10.250.0.5`)).status, "no IPAddress is made for it").toBe(404);
    results.push(`stored Service at 10.250.0.5: ClusterIPOutOfRange after ${Math.round(performance.now() - t)} ms`);
  });

  it("reports ClusterIPOutOfRange once a force-deleted ServiceCIDR leaves its Service uncovered", async () => {
    await createServiceCIDR(ip.client, "doomed", ["10.240.0.0/24"]);
    const created = await until(
      "a Service in the new ServiceCIDR",
      async () => {
        const r = await ip.client.call("POST", "/api/v1/namespaces/default/services", service("in-doomed", { clusterIP: "10.240.0.10" }));
        return r.status === 201 ? r.body : undefined;
      },
      15_000,
    );
    expect(created.spec.clusterIP).toBe("10.240.0.10");
    // The delete is held only when a controller-manager has added its finalizer; dropping the
    // finalizers then forces it, and either way the ServiceCIDR is gone at once.
    expect([200, 202]).toContain((await ip.client.call("DELETE", `${serviceCIDRsPath}/doomed`)).status);
    await dropFinalizers(ip.client, "doomed");
    const t = performance.now();
    expect(await getServiceCIDR(ip.client, "doomed")).toBeUndefined();
    const ev = await until(
      "ClusterIPOutOfRange event",
      () => eventWithReason(ip.client, "default", "Service", "in-doomed", "ClusterIPOutOfRange"),
      20_000,
    );
    expect(ev.message).toBe("Cluster IP [IPv4]: 10.240.0.10 is not within any configured Service CIDR; please recreate service");
    results.push(`Service left outside by a force-deleted ServiceCIDR: ClusterIPOutOfRange after ${Math.round(performance.now() - t)} ms`);
  });
});

describe("legacy Repair (bitmap-only apiserver)", () => {
  it("restores cleared bits (ClusterIPNotAllocated) and frees bits no Service holds after 3 passes", async () => {
    const ips = await createServices(
      bm.client,
      Array.from({ length: 10 }, (_, i) => service(`bits-${i}`)),
    );
    const store = await bmCluster!.store();
    const cleared = [...ips].slice(0, 3).map(([n, [a]]) => [n, a!] as const);
    // Two addresses no Service holds (dynamic allocation is random in the upper band).
    const held = new Set([...ips.values()].flat());
    const leaked = ["10.96.0.250", "10.96.0.251", "10.96.0.252", "10.96.0.253"].filter((a) => !held.has(a)).slice(0, 2);
    const t = performance.now();
    await store.guaranteedUpdate(serviceIPsKey, (cur) => {
      const held = decodeRangeAllocation(String(cur["range"]), typeof cur["data"] === "string" ? cur["data"] : "");
      for (const [, a] of cleared) held.delete(a);
      for (const a of leaked) held.add(a);
      return { ...cur, data: encodeRangeAllocation(String(cur["range"]), held) };
    });
    await until(
      "cleared bits restored",
      async () => {
        const b = await readBitmap(store, serviceIPsKey);
        return cleared.every(([, a]) => b!.ips.has(a)) ? true : undefined;
      },
      20_000,
    );
    const restoreMs = Math.round(performance.now() - t);
    const ev = await until(
      "ClusterIPNotAllocated event",
      () => eventWithReason(bm.client, "default", "Service", cleared[0]![0], "ClusterIPNotAllocated"),
      10_000,
    );
    expect(ev.message).toBe(`Cluster IP [IPv4]:${cleared[0]![1]} is not allocated; repairing`);
    await until(
      "leaked bits freed",
      async () => {
        const b = await readBitmap(store, serviceIPsKey);
        return leaked.every((a) => !b!.ips.has(a)) ? true : undefined;
      },
      30_000,
    );
    results.push(`bitmap: 3 cleared bits restored in ${restoreMs} ms, 2 leaked bits freed in ${Math.round(performance.now() - t)} ms`);
  });

  it("reports ClusterIPOutOfRange for a stored Service outside the range", async () => {
    const store = await bmCluster!.store();
    const t = performance.now();
    await writeServiceToStorage(store, "outside", "10.250.0.5");
    const ev = await until(
      "ClusterIPOutOfRange event",
      () => eventWithReason(bm.client, "default", "Service", "outside", "ClusterIPOutOfRange"),
      20_000,
    );
    expect(ev.message).toBe(`Cluster IP [IPv4]:10.250.0.5 is not within the service CIDR ${range}; please recreate service`);
    results.push(`bitmap: stored Service at 10.250.0.5: ClusterIPOutOfRange after ${Math.round(performance.now() - t)} ms`);
  });
});

describe("RepairIPAddress orphans", () => {
  it("collects hand-made IPAddresses of nonexistent Services after the 60 s grace", async () => {
    await until(
      "orphans collected",
      async () => {
        for (const a of orphanIPs) if ((await ip.client.call("GET", `${ipAddressesPath}/${a}`)).status !== 404) return undefined;
        return true;
      },
      90_000,
      500,
    );
    const ms = Math.round(performance.now() - orphansMadeAt);
    expect(ms, "not before the 60 s grace").toBeGreaterThanOrEqual(59_000);
    const ev = await eventWithReason(ip.client, undefined, "IPAddress", orphanIPs[0]!, "IPAddressNotAllocated").catch(() => undefined);
    results.push(`3 orphan IPAddresses collected ${ms} ms after their creation${ev ? ` (event: ${ev.message})` : ""}`);
  });
});
