/**
 * The cases of upstream storage_test.go TestCreateInitIPFields (reference dual-stack-services.md
 * §3.5, all 520), shared by the allocator-level port and the HTTP-level one.
 */
import { setClusterIPs, setHeadless, setIPFamilies, setIPFamilyPolicy, setSelector, type ClusterMode, type Tweak } from "./testing.ts";

// Transcribed from the reference tables: "<mode> <policy> <cell per families column>".
export const initIPFieldsTables: Record<string, string> = {
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
const policyName = { SS: "SingleStack", PDS: "PreferDualStack", RDS: "RequireDualStack" } as const;

/** One case: the Service's tweaks and the outcome (`null` = an Invalid error). */
export interface InitIPFieldsCase {
  name: string;
  mode: ClusterMode;
  /** The clusterIPs column: unset, v4, v6, v4v6, v6v4, Headless, HeadlessSelectorless. */
  ips: string;
  tweaks: Tweak[];
  want: { policy: string; families: string[] } | null;
}

/** `"v4v6"` -> `["IPv4", "IPv6"]`; `"unset"` -> `[]`. */
export function familiesOf(col: string): string[] {
  return col === "unset" ? [] : col.match(/v[46]/g)!.map((f) => fam[f as "v4" | "v6"]);
}

/** Every case, with the requested clusterIPs of each column taken from `ipsFor`. */
export function initIPFieldsCases(ipsFor: Readonly<Record<string, readonly string[]>>): InitIPFieldsCase[] {
  const out: InitIPFieldsCase[] = [];
  for (const [ips, table] of Object.entries(initIPFieldsTables)) {
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
        const want = cell === "ERR" ? null : { policy: policyName[p as keyof typeof policyName], families: familiesOf(f!) };
        out.push({ name: `${mode} clusterIPs:${ips} policy:${policy} families:${col}`, mode, ips, tweaks, want });
      });
    }
  }
  return out;
}
