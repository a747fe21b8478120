/**
 * Port of upstream storage_test.go TestCreateInitIPFields: every cluster mode
 * x clusterIPs x policy x families combination (520 cases), through allocateCreate.
 */
import { parseIPSloppy, validateServiceCreate } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { familyOf } from "./helpers.ts";
import { initIPFieldsCases } from "./init-ip-fields-cases.ts";
import { normalizeClusterIPs } from "./normalize.ts";
import { makeService, makeTestAllocators } from "./testing.ts";

const ipsFor: Record<string, string[]> = {
  v4: ["10.0.0.1"],
  v6: ["2000::1"],
  v4v6: ["10.0.0.1", "2000::1"],
  v6v4: ["2000::1", "10.0.0.1"],
};

describe("TestCreateInitIPFields", () => {
  const all = initIPFieldsCases(ipsFor);

  it("covers all 520 upstream cases", () => {
    expect(all.length).toBe(520);
  });

  it.each(all)("$name", async ({ mode, ips, tweaks, want }) => {
    const t = makeTestAllocators(mode);
    const svc = makeService("foo", ...tweaks);
    normalizeClusterIPs(svc, null);
    const p = t.alloc.allocateCreate(svc, false);
    if (want === null) {
      await expect(p).rejects.toMatchObject({ status: expect.objectContaining({ code: expect.any(Number) }) });
      return;
    }
    await (await p).commit();
    // The populated object must pass the validation that runs after allocation.
    expect(validateServiceCreate(svc)).toEqual([]);
    expect(svc.spec.ipFamilyPolicy).toBe(want.policy);
    expect(svc.spec.ipFamilies).toEqual(want.families);
    if (ips.startsWith("Headless")) {
      expect(svc.spec.clusterIP).toBe("None");
      expect(svc.spec.clusterIPs).toEqual(["None"]);
      return;
    }
    // proveClusterIPsAllocated: one IP per family, in family order, allocated, user IPs kept.
    const got = svc.spec.clusterIPs!;
    expect(got.length).toBe(want.families.length);
    got.forEach((ip, i) => expect(familyOf(ip)).toBe(want.families[i]));
    expect(svc.spec.clusterIP).toBe(got[0]);
    if (ips !== "unset") ipsFor[ips]!.forEach((ip, i) => expect(got[i]).toBe(ip));
    for (const [i, ip] of got.entries()) {
      const range = t.ranges.get(want.families[i] as "IPv4" | "IPv6")!;
      expect(range.used()).toBe(1);
      expect(range.has(parseIPSloppy(ip)!)).toBe(true);
    }
  });
});
