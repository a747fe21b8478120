/**
 * TestCreateInitIPFields through the HTTP API: a representative subset of reference
 * dual-stack-services.md §3.5 (clusterIPs unset, one IPv4, IPv6+IPv4, headless selectorless; every
 * policy x families column) POSTed to a started apiserver per cluster mode. Every success is
 * deleted again so that requested IPs are free for the next row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";
import { clusterModes, makeService, setClusterIPs, setHeadless, setIPFamilies, setIPFamilyPolicy, setSelector, type ClusterMode, type Tweak } from "./testing.ts";

// "<mode> <policy> <cell per families column>", copied from the reference tables (§3.5).
const tables: Record<string, string> = {
  unset: `
    v4 unset SS:v4 SS:v4 ERR ERR ERR
    v4 RequireDualStack ERR ERR ERR ERR ERR
    v6 unset SS:v6 ERR SS:v6 ERR ERR
    v6 PreferDualStack PDS:v6 ERR PDS:v6 ERR ERR
    v4v6 SingleStack SS:v4 SS:v4 SS:v6 ERR ERR
    v4v6 PreferDualStack PDS:v4,v6 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v6v4 unset SS:v6 SS:v4 SS:v6 ERR ERR
    v6v4 RequireDualStack RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
  `,
  v4: `
    v4 SingleStack SS:v4 SS:v4 ERR ERR ERR
    v4 PreferDualStack PDS:v4 PDS:v4 ERR ERR ERR
    v4v6 unset SS:v4 SS:v4 ERR ERR ERR
    v4v6 RequireDualStack RDS:v4,v6 RDS:v4,v6 ERR RDS:v4,v6 ERR
    v6v4 SingleStack SS:v4 SS:v4 ERR ERR ERR
    v6v4 PreferDualStack PDS:v4,v6 PDS:v4,v6 ERR PDS:v4,v6 ERR
  `,
  v6v4: `
    v4 PreferDualStack ERR ERR ERR ERR ERR
    v6 RequireDualStack ERR ERR ERR ERR ERR
    v4v6 SingleStack ERR ERR ERR ERR ERR
    v4v6 PreferDualStack PDS:v6,v4 ERR PDS:v6,v4 ERR PDS:v6,v4
    v6v4 unset ERR ERR ERR ERR ERR
    v6v4 RequireDualStack RDS:v6,v4 ERR RDS:v6,v4 ERR RDS:v6,v4
  `,
  HeadlessSelectorless: `
    v4 unset RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v4 SingleStack SS:v4 SS:v4 SS:v6 ERR ERR
    v6 PreferDualStack PDS:v6,v4 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v4v6 RequireDualStack RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6v4 unset RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6v4 SingleStack SS:v6 SS:v4 SS:v6 ERR ERR
  `,
};

/** The CIDRs of testing.ts, as --service-cluster-ip-range in each mode's primary order. */
const rangeFlag = (mode: ClusterMode): string => clusterModes[mode].map((f) => (f === "IPv4" ? "10.0.0.0/16" : "2000::/108")).join(",");

const familyColumns = ["unset", "v4", "v6", "v4v6", "v6v4"] as const;
const fam = { v4: "IPv4", v6: "IPv6" } as const;
// Not .1: the kubernetes Service holds the first address of each range.
const ipsFor: Record<string, string[]> = { v4: ["10.0.0.10"], v6v4: ["2000::10", "10.0.0.10"] };
const policyName = { SS: "SingleStack", PDS: "PreferDualStack", RDS: "RequireDualStack" } as const;
const familiesOf = (col: string): string[] => (col === "unset" ? [] : col.match(/v[46]/g)!.map((f) => fam[f as "v4" | "v6"]));

interface Row {
  name: string;
  ips: string;
  tweaks: Tweak[];
  want: { policy: string; families: string[] } | null;
}

function rowsByMode(): Map<ClusterMode, Row[]> {
  const out = new Map<ClusterMode, Row[]>();
  for (const [ips, table] of Object.entries(tables)) {
    for (const line of table.trim().split("\n")) {
      const [mode, policy, ...cells] = line.trim().split(/\s+/) as [ClusterMode, string, ...string[]];
      cells.forEach((cell, i) => {
        const col = familyColumns[i]!;
        const tweaks: Tweak[] = [];
        if (ips === "HeadlessSelectorless") tweaks.push(setHeadless, setSelector({}));
        else if (ips !== "unset") tweaks.push(setClusterIPs(...ipsFor[ips]!));
        if (policy !== "unset") tweaks.push(setIPFamilyPolicy(policy));
        if (col !== "unset") tweaks.push(setIPFamilies(...familiesOf(col)));
        const [p, f] = cell.split(":");
        const want = cell === "ERR" ? null : { policy: policyName[p as keyof typeof policyName], families: familiesOf(f!) };
        const list = out.get(mode) ?? [];
        list.push({ name: `clusterIPs:${ips} policy:${policy} families:${col}`, ips, tweaks, want });
        out.set(mode, list);
      });
    }
  }
  return out;
}

const isV6 = (ip: string): boolean => ip.includes(":");

describe.each([...rowsByMode()])("TestCreateInitIPFields over HTTP, cluster %s", (mode, rows) => {
  let s: TestServer;
  let n = 0;
  beforeAll(async () => {
    s = await startTestServer({ tls: false, serviceClusterIPRange: rangeFlag(mode) });
  });
  afterAll(async () => s.close());

  it.each(rows)("$name", async ({ ips, tweaks, want }) => {
    const name = `s${n++}`;
    const res = await s.request("/api/v1/namespaces/default/services", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ apiVersion: "v1", kind: "Service", ...makeService(name, ...tweaks) }),
    });
    if (want === null) {
      expect(res.status, res.text).toBe(422);
      expect((res.json() as { reason: string }).reason).toBe("Invalid");
      return;
    }
    expect(res.status, res.text).toBe(201);
    const spec = (res.json() as { spec: { ipFamilyPolicy: string; ipFamilies: string[]; clusterIP: string; clusterIPs: string[] } }).spec;
    expect(spec.ipFamilyPolicy).toBe(want.policy);
    expect(spec.ipFamilies).toEqual(want.families);
    if (ips === "HeadlessSelectorless") expect(spec.clusterIPs).toEqual(["None"]);
    else {
      expect(spec.clusterIPs.map((ip) => (isV6(ip) ? "IPv6" : "IPv4"))).toEqual(want.families);
      expect(spec.clusterIP).toBe(spec.clusterIPs[0]);
      ipsFor[ips]?.forEach((ip, i) => expect(spec.clusterIPs[i]).toBe(ip));
    }
    expect((await s.request(`/api/v1/namespaces/default/services/${name}`, { method: "DELETE" })).status).toBe(200);
  });
});
