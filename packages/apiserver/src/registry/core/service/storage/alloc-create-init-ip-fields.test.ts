/**
 * Port of upstream storage_test.go TestCreateInitIPFields: every cluster mode
 * x clusterIPs x policy x families combination of reference
 * dual-stack-services.md §3.5 (520 cases), through allocateCreate.
 */
import { parseIPSloppy, validateServiceCreate } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { familyOf } from "./helpers.ts";
import { normalizeClusterIPs } from "./normalize.ts";
import {
  makeService,
  makeTestAllocators,
  setClusterIPs,
  setHeadless,
  setIPFamilies,
  setIPFamilyPolicy,
  setSelector,
  type ClusterMode,
  type Tweak,
} from "./testing.ts";

// Transcribed from the reference tables: "<mode> <policy> <cell per families column>".
const tables: Record<string, string> = {
  unset: `
    v4 unset SS:v4 SS:v4 ERR ERR ERR
    v4 SingleStack SS:v4 SS:v4 ERR ERR ERR
    v4 PreferDualStack PDS:v4 PDS:v4 ERR ERR ERR
    v4 RequireDualStack ERR ERR ERR ERR ERR
    v6 unset SS:v6 ERR SS:v6 ERR ERR
    v6 SingleStack SS:v6 ERR SS:v6 ERR ERR
    v6 PreferDualStack PDS:v6 ERR PDS:v6 ERR ERR
    v6 RequireDualStack ERR ERR ERR ERR ERR
    v4v6 unset SS:v4 SS:v4 SS:v6 ERR ERR
    v4v6 SingleStack SS:v4 SS:v4 SS:v6 ERR ERR
    v4v6 PreferDualStack PDS:v4,v6 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v4v6 RequireDualStack RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6v4 unset SS:v6 SS:v4 SS:v6 ERR ERR
    v6v4 SingleStack SS:v6 SS:v4 SS:v6 ERR ERR
    v6v4 PreferDualStack PDS:v6,v4 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v6v4 RequireDualStack RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
  `,
  v4: `
    v4 unset SS:v4 SS:v4 ERR ERR ERR
    v4 SingleStack SS:v4 SS:v4 ERR ERR ERR
    v4 PreferDualStack PDS:v4 PDS:v4 ERR ERR ERR
    v4 RequireDualStack ERR ERR ERR ERR ERR
    v4v6 unset SS:v4 SS:v4 ERR ERR ERR
    v4v6 SingleStack SS:v4 SS:v4 ERR ERR ERR
    v4v6 PreferDualStack PDS:v4,v6 PDS:v4,v6 ERR PDS:v4,v6 ERR
    v4v6 RequireDualStack RDS:v4,v6 RDS:v4,v6 ERR RDS:v4,v6 ERR
    v6v4 unset SS:v4 SS:v4 ERR ERR ERR
    v6v4 SingleStack SS:v4 SS:v4 ERR ERR ERR
    v6v4 PreferDualStack PDS:v4,v6 PDS:v4,v6 ERR PDS:v4,v6 ERR
    v6v4 RequireDualStack RDS:v4,v6 RDS:v4,v6 ERR RDS:v4,v6 ERR
  `,
  v6: `
    v6 unset SS:v6 ERR SS:v6 ERR ERR
    v6 SingleStack SS:v6 ERR SS:v6 ERR ERR
    v6 PreferDualStack PDS:v6 ERR PDS:v6 ERR ERR
    v6 RequireDualStack ERR ERR ERR ERR ERR
    v4v6 unset SS:v6 ERR SS:v6 ERR ERR
    v4v6 SingleStack SS:v6 ERR SS:v6 ERR ERR
    v4v6 PreferDualStack PDS:v6,v4 ERR PDS:v6,v4 ERR PDS:v6,v4
    v4v6 RequireDualStack RDS:v6,v4 ERR RDS:v6,v4 ERR RDS:v6,v4
    v6v4 unset SS:v6 ERR SS:v6 ERR ERR
    v6v4 SingleStack SS:v6 ERR SS:v6 ERR ERR
    v6v4 PreferDualStack PDS:v6,v4 ERR PDS:v6,v4 ERR PDS:v6,v4
    v6v4 RequireDualStack RDS:v6,v4 ERR RDS:v6,v4 ERR RDS:v6,v4
  `,
  v4v6: `
    v4 unset ERR ERR ERR ERR ERR
    v4 SingleStack ERR ERR ERR ERR ERR
    v4 PreferDualStack ERR ERR ERR ERR ERR
    v4 RequireDualStack ERR ERR ERR ERR ERR
    v6 unset ERR ERR ERR ERR ERR
    v6 SingleStack ERR ERR ERR ERR ERR
    v6 PreferDualStack ERR ERR ERR ERR ERR
    v6 RequireDualStack ERR ERR ERR ERR ERR
    v4v6 unset ERR ERR ERR ERR ERR
    v4v6 SingleStack ERR ERR ERR ERR ERR
    v4v6 PreferDualStack PDS:v4,v6 PDS:v4,v6 ERR PDS:v4,v6 ERR
    v4v6 RequireDualStack RDS:v4,v6 RDS:v4,v6 ERR RDS:v4,v6 ERR
    v6v4 unset ERR ERR ERR ERR ERR
    v6v4 SingleStack ERR ERR ERR ERR ERR
    v6v4 PreferDualStack PDS:v4,v6 PDS:v4,v6 ERR PDS:v4,v6 ERR
    v6v4 RequireDualStack RDS:v4,v6 RDS:v4,v6 ERR RDS:v4,v6 ERR
  `,
  v6v4: `
    v4 unset ERR ERR ERR ERR ERR
    v4 SingleStack ERR ERR ERR ERR ERR
    v4 PreferDualStack ERR ERR ERR ERR ERR
    v4 RequireDualStack ERR ERR ERR ERR ERR
    v6 unset ERR ERR ERR ERR ERR
    v6 SingleStack ERR ERR ERR ERR ERR
    v6 PreferDualStack ERR ERR ERR ERR ERR
    v6 RequireDualStack ERR ERR ERR ERR ERR
    v4v6 unset ERR ERR ERR ERR ERR
    v4v6 SingleStack ERR ERR ERR ERR ERR
    v4v6 PreferDualStack PDS:v6,v4 ERR PDS:v6,v4 ERR PDS:v6,v4
    v4v6 RequireDualStack RDS:v6,v4 ERR RDS:v6,v4 ERR RDS:v6,v4
    v6v4 unset ERR ERR ERR ERR ERR
    v6v4 SingleStack ERR ERR ERR ERR ERR
    v6v4 PreferDualStack PDS:v6,v4 ERR PDS:v6,v4 ERR PDS:v6,v4
    v6v4 RequireDualStack RDS:v6,v4 ERR RDS:v6,v4 ERR RDS:v6,v4
  `,
  Headless: `
    v4 unset SS:v4 SS:v4 ERR ERR ERR
    v4 SingleStack SS:v4 SS:v4 ERR ERR ERR
    v4 PreferDualStack PDS:v4 PDS:v4 ERR ERR ERR
    v4 RequireDualStack ERR ERR ERR ERR ERR
    v6 unset SS:v6 ERR SS:v6 ERR ERR
    v6 SingleStack SS:v6 ERR SS:v6 ERR ERR
    v6 PreferDualStack PDS:v6 ERR PDS:v6 ERR ERR
    v6 RequireDualStack ERR ERR ERR ERR ERR
    v4v6 unset SS:v4 SS:v4 SS:v6 ERR ERR
    v4v6 SingleStack SS:v4 SS:v4 SS:v6 ERR ERR
    v4v6 PreferDualStack PDS:v4,v6 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v4v6 RequireDualStack RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6v4 unset SS:v6 SS:v4 SS:v6 ERR ERR
    v6v4 SingleStack SS:v6 SS:v4 SS:v6 ERR ERR
    v6v4 PreferDualStack PDS:v6,v4 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v6v4 RequireDualStack RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
  `,
  HeadlessSelectorless: `
    v4 unset RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v4 SingleStack SS:v4 SS:v4 SS:v6 ERR ERR
    v4 PreferDualStack PDS:v4,v6 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v4 RequireDualStack RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6 unset RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6 SingleStack SS:v6 SS:v4 SS:v6 ERR ERR
    v6 PreferDualStack PDS:v6,v4 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v6 RequireDualStack RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v4v6 unset RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v4v6 SingleStack SS:v4 SS:v4 SS:v6 ERR ERR
    v4v6 PreferDualStack PDS:v4,v6 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v4v6 RequireDualStack RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6v4 unset RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6v4 SingleStack SS:v6 SS:v4 SS:v6 ERR ERR
    v6v4 PreferDualStack PDS:v6,v4 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v6v4 RequireDualStack RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
  `,
};

const familyColumns = ["unset", "v4", "v6", "v4v6", "v6v4"] as const;
const fam = { v4: "IPv4", v6: "IPv6" } as const;
const ipsFor: Record<string, string[]> = { v4: ["10.0.0.1"], v6: ["2000::1"], v4v6: ["10.0.0.1", "2000::1"], v6v4: ["2000::1", "10.0.0.1"] };
const policyName = { SS: "SingleStack", PDS: "PreferDualStack", RDS: "RequireDualStack" } as const;

interface Row {
  name: string;
  mode: ClusterMode;
  ips: string;
  tweaks: Tweak[];
  expect: { error: true } | { error: false; policy: string; families: string[] };
}

function familiesOf(col: string): string[] {
  return col === "unset" ? [] : col.match(/v[46]/g)!.map((f) => fam[f as "v4" | "v6"]);
}

function rows(): Row[] {
  const out: Row[] = [];
  for (const [ips, table] of Object.entries(tables)) {
    for (const line of table.trim().split("\n")) {
      const [mode, policy, ...cells] = line.trim().split(/\s+/) as [ClusterMode, string, ...string[]];
      cells.forEach((cell, i) => {
        const col = familyColumns[i]!;
        const tweaks: Tweak[] = [];
        if (ips === "Headless" || ips === "HeadlessSelectorless") tweaks.push(setHeadless);
        else if (ips !== "unset") tweaks.push(setClusterIPs(...ipsFor[ips]!));
        if (ips === "HeadlessSelectorless") tweaks.push(setSelector({}));
        if (policy !== "unset") tweaks.push(setIPFamilyPolicy(policy));
        if (col !== "unset") tweaks.push(setIPFamilies(...familiesOf(col)));
        const [p, f] = cell.split(":");
        const expect = cell === "ERR"
          ? ({ error: true } as const)
          : ({ error: false, policy: policyName[p as keyof typeof policyName], families: familiesOf(f!) } as const);
        out.push({ name: `${mode} clusterIPs:${ips} policy:${policy} families:${col}`, mode, ips, tweaks, expect });
      });
    }
  }
  return out;
}

describe("TestCreateInitIPFields", () => {
  const all = rows();

  it("covers all 520 upstream cases", () => {
    expect(all.length).toBe(520);
  });

  it.each(all)("$name", async ({ mode, ips, tweaks, expect: want }) => {
    const t = makeTestAllocators(mode);
    const svc = makeService("foo", ...tweaks);
    normalizeClusterIPs(svc, null);
    const p = t.alloc.allocateCreate(svc, false);
    if (want.error) {
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
