/**
 * Upstream test/integration/servicecidr/allocator_test.go, through the HTTP API of in-process
 * apiservers on one shared Store, in every allocator mode the test applies to: `bitmap`
 * (MultiCIDRServiceAllocator off: no IPAddress objects), `dual-write` and `ipaddress`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { objectKey, type AllocatorMode } from "@servicenet/apiserver";
import { createService, expectIPAddressesFor, getIPAddress, listIPAddresses, listServices, service, servicesPath } from "./api.ts";
import { eventually } from "@servicenet/testing";
import { allModes, ipAddressModes, openStore, startApi, type Json, type TestApi } from "./harness.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});
async function api(o: Parameters<typeof startApi>[0]): Promise<TestApi> {
  const t = await startApi(o);
  cleanups.push(() => t.close());
  return t;
}
async function sharedStore() {
  const s = await openStore("memory");
  cleanups.push(() => s.close());
  return s.store;
}
const clusterIPs = (svcs: readonly Json[]) => svcs.flatMap((s) => s.spec.clusterIPs ?? []);

describe.each(allModes)("servicecidr allocator [%s]", (mode: AllocatorMode) => {
  it("TestServiceAlloc: a /29 holds kubernetes.default and 5 Services, the next fails with range is full, a delete frees one", async () => {
    const t = await api({ mode, range: "192.168.0.0/29" });
    for (let i = 0; i < 5; i++) await createService(t, service(`svc-${i}`));
    const full = await t.call("POST", servicesPath(), service("svc-full"));
    expect(full.status).toBe(500);
    expect(full.body.message).toContain("range is full");
    await t.must("DELETE", `${servicesPath()}/svc-1`);
    const again = await createService(t, service("svc-full"));
    expect(again.spec.clusterIP).toMatch(/^192\.168\.0\.[1-6]$/);
    const ips = clusterIPs(await listServices(t));
    expect(new Set(ips).size).toBe(6);
    if (mode === "bitmap") expect(await listIPAddresses(t)).toEqual([]);
    else expect((await listIPAddresses(t)).map((a: Json) => a.metadata.name).sort()).toEqual([...ips].sort());
  });

  it("TestFlagsIPAllocator: 5 Services on a /24 each get an IPAddress (none in bitmap mode)", async () => {
    const t = await api({ mode, range: "10.0.0.0/24" });
    const svcs: Json[] = [];
    for (let i = 0; i < 5; i++) svcs.push(await createService(t, service(`svc-${i}`)));
    if (mode === "bitmap") {
      expect(await listIPAddresses(t)).toEqual([]);
      return;
    }
    expect(await expectIPAddressesFor(t, svcs)).toEqual([]);
    const a = await getIPAddress(t, svcs[0].spec.clusterIP);
    expect(a.metadata.labels).toEqual({
      "ipaddress.kubernetes.io/ip-family": "IPv4",
      "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io",
    });
  });

  it("TestServiceAllocIPAddress: a /64 Service range (ipaddress mode only; the 20-bit flag limit otherwise)", async () => {
    if (mode !== "ipaddress") {
      await expect(startApi({ mode, range: "2001:db8::/64" })).rejects.toThrow(
        "specified --service-cluster-ip-range is too large; for 128-bit addresses, the mask must be >= 108",
      );
      return;
    }
    const t = await api({ mode, range: "2001:db8::/64" });
    const svcs: Json[] = [];
    for (let i = 0; i < 5; i++) svcs.push(await createService(t, service(`svc-${i}`)));
    svcs.push(await createService(t, service("svc-top", { clusterIP: "2001:db8::ffff:ffff:ffff:ffff" })));
    expect(svcs.at(-1).spec.clusterIP).toBe("2001:db8::ffff:ffff:ffff:ffff");
    expect(await expectIPAddressesFor(t, svcs)).toEqual([]);
    expect((await getIPAddress(t, "2001:db8::ffff:ffff:ffff:ffff")).metadata.labels["ipaddress.kubernetes.io/ip-family"]).toBe("IPv6");
  });

  it("TestMigrateService: a Service written straight to storage gets its IPAddress from the repair loop", async () => {
    const store = await sharedStore();
    const t = await api({ store, mode, range: "10.0.0.0/24", repairIntervalMs: 1_000 });
    const raw = {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "test-svc", namespace: "default" },
      spec: {
        type: "ClusterIP",
        clusterIP: "10.0.0.11",
        clusterIPs: ["10.0.0.11"],
        ipFamilies: ["IPv4"],
        ipFamilyPolicy: "SingleStack",
        ports: [{ port: 80, protocol: "TCP", targetPort: 80 }],
      },
    };
    await store.create(objectKey("services/specs", "default", "test-svc"), raw);
    if (mode === "bitmap") {
      // The legacy Repair marks the IP in the bitmap: a later request for it is refused.
      const r = await eventually(
        async () => {
          const c = await t.call("POST", servicesPath(), service("other", { clusterIP: "10.0.0.11" }));
          if (c.status === 201) await t.must("DELETE", `${servicesPath()}/other`);
          return c.status === 422 ? c : undefined;
        },
        { what: "10.0.0.11 allocated in the bitmap", timeoutMs: 10_000 },
      );
      expect(r.body.message).toContain("provided IP is already allocated");
      return;
    }
    const a = await eventually(() => getIPAddress(t, "10.0.0.11"), { what: "IPAddress 10.0.0.11", timeoutMs: 10_000 });
    // ParentReference.group is omitempty: the core group ("") is not written, as kube-apiserver does.
    expect(a.spec.parentRef).toEqual({ resource: "services", namespace: "default", name: "test-svc" });
  });
});

describe.each(ipAddressModes)("servicecidr skew [new apiserver %s, old bitmap]", (newMode: AllocatorMode) => {
  it("TestSkewedAllocators: Services created on the bitmap apiserver get IPAddresses from the new one's repair loop", async () => {
    const store = await sharedStore();
    const old = await api({ store, mode: "bitmap", range: "10.0.0.0/24" });
    const neu = await api({ store, mode: newMode, range: "10.0.0.0/24" });
    const svcs: Json[] = [];
    for (let i = 0; i < 5; i++) svcs.push(await createService(old, service(`svc-old-${i}`)));
    // Only dual-write keeps the bitmap the old apiserver reads; ipaddress mode would collide with it.
    if (newMode === "dual-write") for (let i = 0; i < 5; i++) svcs.push(await createService(neu, service(`svc-new-${i}`)));
    await eventually(async () => (await expectIPAddressesFor(neu, svcs)).length === 0, {
      what: "every Service has its IPAddress",
      timeoutMs: 10_000,
    });
    expect(new Set(clusterIPs(svcs)).size).toBe(svcs.length);
  });
});

describe("servicecidr skew rollout", () => {
  it("TestSkewAllocatorsRollout: 100 concurrent pairs asking old (bitmap) and new (dual-write) for 10.0.0.5-104", async () => {
    const store = await sharedStore();
    const old = await api({ store, mode: "bitmap", range: "10.0.0.0/24" });
    const neu = await api({ store, mode: "dual-write", range: "10.0.0.0/24" });
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const ip = `10.0.0.${i + 5}`;
        return Promise.all([
          old.call("POST", servicesPath(), service(`svc-old-${i}`, { clusterIP: ip })),
          neu.call("POST", servicesPath(), service(`svc-new-${i}`, { clusterIP: ip })),
        ]);
      }),
    );
    const ms = Math.round(performance.now() - started);
    const statuses = results.flat().map((r) => r.status);
    expect(statuses.filter((s) => s !== 201)).toHaveLength(100);
    for (const [a, b] of results) expect([a.status, b.status].sort()).toEqual([201, 422]);
    const svcs = await listServices(neu);
    const ips = clusterIPs(svcs);
    expect(new Set(ips).size).toBe(ips.length);
    expect(ips).toHaveLength(101);
    const addrs = await eventually(
      async () => {
        const a = await listIPAddresses(neu);
        return a.length === 101 ? a : undefined;
      },
      { what: "101 IPAddresses", timeoutMs: 15_000 },
    );
    expect(addrs.map((a: Json) => a.metadata.name)).toContain("10.0.0.1");
    expect(await expectIPAddressesFor(neu, svcs)).toEqual([]);
    // both apiservers wrote the shared legacy bitmap: one bit per Service, kubernetes.default included
    const range = (await store.get("/registry/ranges/serviceips")) as unknown as { range: string; data: string };
    const bits = [...Buffer.from(range.data, "base64")].reduce((n, b) => n + b.toString(2).replaceAll("0", "").length, 0);
    expect([range.range, bits]).toEqual(["10.0.0.0/24", 101]);
    console.log(
      `TestSkewAllocatorsRollout: 200 concurrent creates over 2 apiservers in ${ms} ms, ${statuses.filter((s) => s === 201).length} created, 101 IPAddresses`,
    );
  });
});
