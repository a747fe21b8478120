/**
 * TestCreateInitIPFields through the HTTP API: all 520 cases of upstream storage_test.go POSTed to a started apiserver per cluster mode. Every success is
 * deleted again so that requested IPs are free for the next row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";
import { initIPFieldsCases, type InitIPFieldsCase } from "./init-ip-fields-cases.ts";
import { clusterModes, makeService, type ClusterMode } from "./testing.ts";

/** The CIDRs of testing.ts, as --service-cluster-ip-range in each mode's primary order. */
const rangeFlag = (mode: ClusterMode): string => clusterModes[mode].map((f) => (f === "IPv4" ? "10.0.0.0/16" : "2000::/108")).join(",");

// Not .1: the kubernetes Service holds the first address of each range.
const ipsFor: Record<string, string[]> = {
  v4: ["10.0.0.10"],
  v6: ["2000::10"],
  v4v6: ["10.0.0.10", "2000::10"],
  v6v4: ["2000::10", "10.0.0.10"],
};

function rowsByMode(): Map<ClusterMode, InitIPFieldsCase[]> {
  const out = new Map<ClusterMode, InitIPFieldsCase[]>();
  for (const c of initIPFieldsCases(ipsFor)) out.set(c.mode, [...(out.get(c.mode) ?? []), c]);
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
    if (ips.startsWith("Headless")) expect(spec.clusterIPs).toEqual(["None"]);
    else {
      expect(spec.clusterIPs.map((ip) => (isV6(ip) ? "IPv6" : "IPv4"))).toEqual(want.families);
      expect(spec.clusterIP).toBe(spec.clusterIPs[0]);
      ipsFor[ips]?.forEach((ip, i) => expect(spec.clusterIPs[i]).toBe(ip));
    }
    expect((await s.request(`/api/v1/namespaces/default/services/${name}`, { method: "DELETE" })).status).toBe(200);
  });
});
