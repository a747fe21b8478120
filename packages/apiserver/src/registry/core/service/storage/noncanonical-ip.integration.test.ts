/**
 * Non-canonical ClusterIPs through HTTP, in every allocator mode: a Service created with an
 * accepted but non-canonical spelling (`010.096.000.010`, `::ffff:10.96.0.11`, `fd00:10:96::000a`,
 * `FD00:10:96::B`) keeps that spelling, the response carries upstream's warning, and its address
 * stays allocated past the repair loops' grace periods: a second Service can never get it, not
 * even spelled canonically.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { parseIPSloppy, formatIP } from "@servicenet/api";
import { featureGatesForMode, type AllocatorMode } from "../../../../features/kube-features.ts";
import { resourcePrefix } from "../../../../storage/index.ts";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

type Svc = { metadata: { name: string; uid?: string }; spec: { clusterIP?: string; clusterIPs?: string[] } };

const base = "/api/v1/namespaces/default/services";
/** The repair loops' "created after its Service" grace (5 s) plus a margin for a repair pass. */
const pastRepairGraceMs = 6_500;

/** [spelling, canonical, warning] per case: both families, leading zeros, 4-in-6, RFC 5952. */
const cases: Array<[string, string, string]> = [
  [
    "010.096.000.010",
    "10.96.0.10",
    'spec.clusterIPs[0]: non-standard IP address "010.096.000.010" will be considered invalid in a future Kubernetes release: use "10.96.0.10"',
  ],
  [
    "::ffff:10.96.0.11",
    "10.96.0.11",
    'spec.clusterIPs[0]: non-standard IP address "::ffff:10.96.0.11" will be considered invalid in a future Kubernetes release: use "10.96.0.11"',
  ],
  [
    "fd00:10:96::000a",
    "fd00:10:96::a",
    'spec.clusterIPs[0]: IPv6 address "fd00:10:96::000a" should be in RFC 5952 canonical format ("fd00:10:96::a")',
  ],
  [
    "FD00:10:96::B",
    "fd00:10:96::b",
    'spec.clusterIPs[0]: IPv6 address "FD00:10:96::B" should be in RFC 5952 canonical format ("fd00:10:96::b")',
  ],
];

describe.concurrent.each<AllocatorMode>(["bitmap", "dual-write", "ipaddress"])("allocator mode %s", (mode) => {
  let s: TestServer;
  beforeAll(async () => {
    // Small ranges, so filling them dynamically must walk past every held address.
    s = await startTestServer({
      tls: false,
      serviceClusterIPRange: "10.96.0.0/28,fd00:10:96::/124",
      featureGates: featureGatesForMode(mode),
      repairIntervalMs: 300,
    });
  });
  afterAll(async () => s?.close());

  const post = async (name: string, spec: Record<string, unknown>) => {
    const r = await s.request(base, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ apiVersion: "v1", kind: "Service", metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } }),
    });
    return { status: r.status, warning: r.headers.get("warning"), obj: r.json() as Svc & { message?: string } };
  };
  const ipAddressUIDs = async () =>
    new Map((await s.api.store.list(resourcePrefix("ipaddresses"))).items.map((o) => [o.metadata.name, o.metadata.uid]));

  // Concurrent tests must use their own `expect`.
  it("keeps the spelling, warns, and never hands the address out again", async ({ expect }) => {
    for (const [i, [spelling, , warning]] of cases.entries()) {
      const r = await post(`odd-${i}`, {
        clusterIP: spelling,
        ...(spelling.includes(":") && !spelling.includes(".") ? { ipFamilies: ["IPv6"] } : {}),
      });
      expect(r.status, JSON.stringify(r.obj)).toBe(201);
      expect(r.obj.spec.clusterIPs).toEqual([spelling]);
      expect(r.warning).toBe(`299 - ${JSON.stringify(warning)}`);
    }
    // Updates (PUT and patch) of a Service that keeps the spelling warn again, as upstream's WarningsOnUpdate.
    const patched = await s.request(`${base}/odd-0`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({ metadata: { labels: { a: "b" } } }),
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.headers.get("warning")).toBe(`299 - ${JSON.stringify(cases[0]![2])}`);
    const current = (await s.request(`${base}/odd-0`)).json() as Svc;
    const put = await s.request(`${base}/odd-0`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(current),
    });
    expect(put.status, put.text).toBe(200);
    expect(put.headers.get("warning")).toBe(`299 - ${JSON.stringify(cases[0]![2])}`);
    const before = await ipAddressUIDs();
    await new Promise((r) => setTimeout(r, pastRepairGraceMs));
    if (mode !== "bitmap") {
      // Every IPAddress is named canonically and survived the repair loop untouched (no flapping).
      for (const [, canonical] of cases) {
        expect(before.get(canonical), canonical).toBeDefined();
        expect((await ipAddressUIDs()).get(canonical), canonical).toBe(before.get(canonical));
      }
    }
    for (const [i, [, canonical]] of cases.entries()) {
      const r = await post(`dup-${i}`, { clusterIP: canonical, ...(canonical.includes(":") ? { ipFamilies: ["IPv6"] } : {}) });
      expect(r.status, `${canonical}: ${JSON.stringify(r.obj)}`).toBe(422);
      expect(r.obj.message).toContain("provided IP is already allocated");
    }
    // Fill both ranges dynamically: no address may be held twice.
    for (const family of ["IPv4", "IPv6"]) {
      for (let i = 0; ; i++) {
        const r = await post(`fill-${family.toLowerCase()}-${i}`, { ipFamilies: [family] });
        if (r.status !== 201) break;
      }
    }
    const list = (await s.request(base)).json() as { items: Svc[] };
    const held = list.items.flatMap((svc) => (svc.spec.clusterIPs ?? []).map((ip) => formatIP(parseIPSloppy(ip)!)));
    expect(held.length).toBeGreaterThan(14);
    expect(held.filter((ip, i) => held.indexOf(ip) !== i)).toEqual([]);
  });
});
