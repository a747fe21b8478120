/**
 * KEP-1880 with dual-stack updates through HTTP: an upgrade's new secondary ClusterIP gets its
 * IPAddress (and keeps it past the repair loop's grace periods), a downgrade releases it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { featureGatesForMode, type AllocatorMode } from "../../../../features/kube-features.ts";
import { resourcePrefix } from "../../../../storage/index.ts";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

type Svc = { metadata: Record<string, unknown>; spec: { clusterIPs?: string[]; ipFamilyPolicy?: string; ipFamilies?: string[] } };

// The two modes at once: each has its own server, and each spends its time sitting out the grace.
describe.concurrent.each<AllocatorMode>(["dual-write", "ipaddress"])("allocator mode %s", (mode) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      tls: false,
      serviceClusterIPRange: "10.0.0.0/16,2000::/108",
      featureGates: featureGatesForMode(mode),
      repairIntervalMs: 500,
    });
  });
  afterAll(async () => s.close());

  const base = "/api/v1/namespaces/default/services";
  const send = async (method: string, path: string, body: unknown) => {
    const r = await s.request(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    expect(r.status, r.text).toBeLessThan(300);
    return r.json() as Svc;
  };
  const ipAddresses = async () => (await s.api.store.list(resourcePrefix("ipaddresses"))).items.map((o) => o.metadata.name).sort();

  it("SingleStack -> RequireDualStack by PUT: the new secondary has its IPAddress, still after the repair grace", async () => {
    const created = await send("POST", base, {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "up" },
      spec: { ports: [{ port: 80 }] },
    });
    const got = (await s.request(`${base}/up`)).json() as Svc;
    got.spec.ipFamilyPolicy = "RequireDualStack";
    const upgraded = await send("PUT", `${base}/up`, got);
    expect(upgraded.spec.clusterIPs).toHaveLength(2);
    expect(upgraded.spec.clusterIPs![0]).toBe(created.spec.clusterIPs![0]);
    expect(await ipAddresses()).toEqual(expect.arrayContaining(upgraded.spec.clusterIPs!));
    await new Promise((r) => setTimeout(r, 6_500));
    expect(await ipAddresses()).toEqual(expect.arrayContaining(upgraded.spec.clusterIPs!));
    const down = {
      ...upgraded,
      spec: { ...upgraded.spec, ipFamilyPolicy: "SingleStack", ipFamilies: ["IPv4"], clusterIPs: [upgraded.spec.clusterIPs![0]] },
    };
    await send("PUT", `${base}/up`, down);
    expect(await ipAddresses()).not.toContain(upgraded.spec.clusterIPs![1]);
  });
});
