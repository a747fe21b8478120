/**
 * Allocation identity is the parsed address, in every allocator mode: a ClusterIP
 * given as `010.000.000.010`, `::ffff:10.0.0.11` or `2000:0::000B` is stored as sent, takes the
 * same bitmap bit and the same (canonically named) IPAddress as its canonical form, blocks that
 * form, and is released by its own spelling on update and delete.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseIP } from "@servicenet/api";
import { featureGatesForMode, type AllocatorMode } from "../../../../features/kube-features.ts";
import { createStore, objectKey, resourcePrefix, type Store } from "../../../../storage/index.ts";
import { newServiceAllocators, type ServiceAllocators } from "../../rest/service-ip-allocators.ts";
import { ipAddressStoragePath } from "../ipallocator/ipaddress-client.ts";
import type { StoredRange } from "../ipallocator/stored-range.ts";
import { defaultOnReadService, normalizeClusterIPs, patchAllocatedValues } from "./normalize.ts";
import { makeService, setClusterIPs, setIPFamilies, setIPFamilyPolicy, type TestService, type Tweak } from "./testing.ts";

const until = async (cond: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
};

describe.each<AllocatorMode>(["bitmap", "dual-write", "ipaddress"])("allocator mode %s", (mode) => {
  let store: Store | undefined;
  let sa: ServiceAllocators | undefined;
  afterEach(async () => {
    sa?.stop();
    await store?.close();
  });

  async function setup(): Promise<ServiceAllocators> {
    store = await createStore({ backend: "memory" });
    // The ServiceCIDR the default-ServiceCIDR controller would create (no Ready condition counts as ready).
    await store.create(objectKey("servicecidrs", undefined, "kubernetes"), {
      apiVersion: "networking.k8s.io/v1",
      kind: "ServiceCIDR",
      metadata: { name: "kubernetes" },
      spec: { cidrs: ["10.0.0.0/16", "2000::/108"] },
    });
    sa = await newServiceAllocators({ store, serviceClusterIPRange: "10.0.0.0/16,2000::/108", featureGates: featureGatesForMode(mode) });
    await until(() => [...sa!.metas.values()].every((m) => m.allocators().length > 0));
    // Bitmap mode: the legacy repair loop would create the RangeAllocation objects.
    for (const b of sa.bitmaps.values()) await (b as Partial<StoredRange>).ensureInitialized?.();
    return sa;
  }

  const create = async (name: string, ...tweaks: Tweak[]): Promise<TestService> => {
    const svc = makeService(name, ...tweaks);
    normalizeClusterIPs(svc, null);
    await (await sa!.allocators.allocateCreate(svc, false)).commit();
    return svc;
  };
  const held = (text: string): boolean => {
    const ip = parseIP(text)!;
    return sa!.allocators.serviceIPAllocatorsByFamily.get(ip.family)!.has(ip);
  };
  const bit = (text: string): boolean | undefined => {
    const ip = parseIP(text)!;
    return sa!.bitmaps.get(ip.family)?.has(ip);
  };
  const ipAddressNames = async (): Promise<string[]> =>
    (await store!.list(resourcePrefix(ipAddressStoragePath))).items.map((o) => o.metadata.name!).sort();

  it("create keeps the spelling and holds the parsed address; the canonical form is taken; delete releases it", async () => {
    await setup();
    const odd = await create("odd", setClusterIPs("010.000.000.010"));
    const mapped = await create("mapped", setClusterIPs("::ffff:10.0.0.11"));
    const v6 = await create("v6", setIPFamilies("IPv6"), setClusterIPs("2000:0::000B"));
    expect([odd, mapped, v6].map((s) => s.spec.clusterIPs)).toEqual([["010.000.000.010"], ["::ffff:10.0.0.11"], ["2000:0::000B"]]);
    expect(["10.0.0.10", "10.0.0.11", "2000::b"].map(held)).toEqual([true, true, true]);
    if (mode !== "ipaddress") expect(["10.0.0.10", "10.0.0.11", "2000::b"].map(bit)).toEqual([true, true, true]);
    if (mode !== "bitmap") expect(await ipAddressNames()).toEqual(["10.0.0.10", "10.0.0.11", "2000::b"]);

    for (const [name, ip, tweaks] of [
      ["a", "10.0.0.10", []],
      ["b", "10.0.0.011", []],
      ["c", "2000::b", [setIPFamilies("IPv6")]],
    ] as const) {
      await expect(create(name, ...tweaks, setClusterIPs(ip)), ip).rejects.toThrow("provided IP is already allocated");
    }

    for (const svc of [odd, mapped, v6]) await sa!.allocators.releaseAllocatedResources(svc);
    if (mode !== "bitmap") await until(() => sa!.ipAddresses!.list().length === 0);
    expect(["10.0.0.10", "10.0.0.11", "2000::b"].map(held)).toEqual([false, false, false]);
    if (mode !== "ipaddress") expect(["10.0.0.10", "10.0.0.11", "2000::b"].map(bit)).toEqual([false, false, false]);
    if (mode !== "bitmap") expect(await ipAddressNames()).toEqual([]);
  });

  it("a dual-stack downgrade releases the secondary by its odd spelling", async () => {
    await setup();
    const stored = await create("dual", setIPFamilyPolicy("RequireDualStack"), setClusterIPs("10.0.0.20", "2000:0:0::0014"));
    expect(held("2000::14")).toBe(true);
    const after = structuredClone(stored);
    after.spec.ipFamilyPolicy = "SingleStack";
    after.spec.ipFamilies = ["IPv4"];
    after.spec.clusterIPs = ["10.0.0.20"];
    const old = structuredClone(stored);
    defaultOnReadService(old, sa!.allocators.defaultServiceIPFamily);
    patchAllocatedValues(after, old);
    normalizeClusterIPs(after, old);
    await (await sa!.allocators.allocateUpdate(after, old, false)).commit();
    if (mode !== "bitmap") await until(() => sa!.ipAddresses!.get("2000::14") === undefined);
    expect([held("10.0.0.20"), held("2000::14")]).toEqual([true, false]);
  });
});
