/**
 * Upstream test/e2e/network/service_cidrs.go, the API parts: the two [Conformance] tests
 * ("ServiceCIDR and IPAddress API should support ServiceCIDR/IPAddress API operations") step by
 * step, and the API half of "Service CIDRs should create Services and serve on different Service
 * CIDRs" (the controller-manager sets the new ServiceCIDR Ready; no pods or traffic here).
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { AllocatorMode } from "@servicenet/apiserver";
import {
  getIPAddress,
  getServiceCIDR,
  ipAddressesPath,
  readyCondition,
  service,
  serviceCIDR,
  serviceCIDRsPath,
  servicesPath,
  waitServiceCIDRReady,
} from "./api.ts";
import { allModes, ipAddressModes, startApi, startControllerManager, type Json, type TestApi } from "./harness.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});
async function api(mode: AllocatorMode, range = "10.96.0.0/16"): Promise<TestApi> {
  const t = await startApi({ mode, range });
  cleanups.push(() => t.close());
  return t;
}
const merge = "application/merge-patch+json";
const events = (text: string): Json[] =>
  text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
/** The events of a watch from `rv` (the server ends it after one second). */
async function watchFrom(t: TestApi, path: string, rv: string, query = ""): Promise<Json[]> {
  const r = await t.call("GET", `${path}?watch=true&resourceVersion=${rv}&timeoutSeconds=1${query}`);
  expect(r.status).toBe(200);
  return typeof r.body === "string" ? events(r.body) : [r.body];
}

describe.each(ipAddressModes)("ServiceCIDR API [%s]", (mode) => {
  it("[sig-network] ServiceCIDR and IPAddress API should support ServiceCIDR API operations [Conformance]", async () => {
    const t = await api(mode);
    const list0 = await t.must("GET", serviceCIDRsPath);
    // get the default, and its /status: same GVK and UID
    const def = await t.must("GET", `${serviceCIDRsPath}/kubernetes`);
    expect(def.spec.cidrs).toEqual(["10.96.0.0/16"]);
    const st = await t.must("GET", `${serviceCIDRsPath}/kubernetes/status`);
    expect([st.apiVersion, st.kind, st.metadata.uid]).toEqual([def.apiVersion, def.kind, def.metadata.uid]);
    expect(readyCondition(st)).toMatchObject({ status: "True", message: "Kubernetes default Service CIDR is ready" });
    // No controller-manager here: nothing adds the ServiceCIDR finalizer (its ServiceCIDR controller does).
    expect(def.metadata.finalizers).toBeUndefined();
    // list (>= 1)
    expect(list0.items.length).toBeGreaterThanOrEqual(1);
    // patch and update annotations on the default
    const patched = await t.must("PATCH", `${serviceCIDRsPath}/kubernetes`, { metadata: { annotations: { patched: "true" } } }, merge);
    expect(patched.metadata.annotations.patched).toBe("true");
    expect(BigInt(patched.metadata.resourceVersion)).toBeGreaterThan(BigInt(def.metadata.resourceVersion));
    const updated = await t.must("PUT", `${serviceCIDRsPath}/kubernetes`, {
      ...patched,
      metadata: { ...patched.metadata, annotations: { ...patched.metadata.annotations, updated: "true" } },
    });
    expect(updated.metadata.annotations).toMatchObject({ patched: "true", updated: "true" });
    expect(updated.spec.cidrs).toEqual(["10.96.0.0/16"]);
    // create, status update and status patch, deletecollection on a second one
    const created = await t.must("POST", serviceCIDRsPath, {
      ...serviceCIDR("e2e-cidr", "10.200.0.0/24"),
      metadata: { name: "e2e-cidr", labels: { e2e: "true" } },
    });
    expect(created.metadata.finalizers).toBeUndefined();
    const cond = {
      type: "Ready",
      status: "False",
      reason: "E2E",
      message: "set by the test",
      lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    };
    const su = await t.must("PUT", `${serviceCIDRsPath}/e2e-cidr/status`, { ...created, status: { conditions: [cond] } });
    expect(readyCondition(su)).toMatchObject({ status: "False", reason: "E2E" });
    const sp = await t.must(
      "PATCH",
      `${serviceCIDRsPath}/e2e-cidr/status`,
      { status: { conditions: [{ ...cond, status: "True", reason: "E2EPatched" }] } },
      merge,
    );
    expect(readyCondition(sp)).toMatchObject({ status: "True", reason: "E2EPatched" });
    // watch sees the default's two changes and the new object
    const seen = await watchFrom(t, serviceCIDRsPath, list0.metadata.resourceVersion);
    expect(seen.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(
      expect.arrayContaining(["MODIFIED kubernetes", "ADDED e2e-cidr"]),
    );
    // delete: without a finalizer it is gone at once
    const del = await t.call("DELETE", `${serviceCIDRsPath}/e2e-cidr`);
    expect(del.status).toBe(200);
    expect(await getServiceCIDR(t, "e2e-cidr")).toBeUndefined();
    await t.must("POST", serviceCIDRsPath, {
      ...serviceCIDR("e2e-cidr-2", "10.201.0.0/24"),
      metadata: { name: "e2e-cidr-2", labels: { e2e: "true" } },
    });
    await t.must("DELETE", `${serviceCIDRsPath}?labelSelector=e2e%3Dtrue`);
    expect(await getServiceCIDR(t, "e2e-cidr-2")).toBeUndefined();
  });
});

describe("ServiceCIDR API [bitmap]", () => {
  it("MultiCIDRServiceAllocator off: no default ServiceCIDR and no IPAddress objects", async () => {
    const t = await api("bitmap");
    expect(await getServiceCIDR(t, "kubernetes")).toBeUndefined();
    expect((await t.must("GET", ipAddressesPath)).items).toEqual([]);
  });
});

describe.each(allModes)("IPAddress API [%s]", (mode) => {
  it("[sig-network] ServiceCIDR and IPAddress API should support IPAddress API operations [Conformance]", async () => {
    const t = await api(mode);
    const rv0 = (await t.must("GET", ipAddressesPath)).metadata.resourceVersion;
    const parentRef = { group: "example.com", resource: "gateways", namespace: "default", name: "e2e" };
    const mk = (name: string, type: string) => ({
      apiVersion: "networking.k8s.io/v1",
      kind: "IPAddress",
      metadata: { name, labels: { type } },
      spec: { parentRef },
    });
    // 1. create
    const b = await t.must("POST", ipAddressesPath, mk("255.255.255.255", "broadcast"));
    await t.must("POST", ipAddressesPath, mk("fe80::42:1dff:fe84:f9e2", "link-local"));
    expect(b.spec.parentRef).toEqual(parentRef);
    // 2. merge patch: the resourceVersion increases
    const p = await t.must("PATCH", `${ipAddressesPath}/255.255.255.255`, { metadata: { annotations: { patched: "true" } } }, merge);
    expect(p.metadata.annotations.patched).toBe("true");
    expect(BigInt(p.metadata.resourceVersion)).toBeGreaterThan(BigInt(b.metadata.resourceVersion));
    // 3. update
    const u = await t.must("PUT", `${ipAddressesPath}/255.255.255.255`, {
      ...p,
      metadata: { ...p.metadata, annotations: { patched: "true", updated: "true" } },
    });
    expect(u.metadata.annotations.updated).toBe("true");
    // 4. get
    expect((await getIPAddress(t, "255.255.255.255")).metadata.annotations).toEqual({ patched: "true", updated: "true" });
    // 5. list by label: exactly one
    const l = await t.must("GET", `${ipAddressesPath}?labelSelector=type%3Dbroadcast`);
    expect(l.items.map((i: Json) => i.metadata.name)).toEqual(["255.255.255.255"]);
    // 6. watch
    const seen = await watchFrom(t, ipAddressesPath, rv0, "&labelSelector=type%3Dbroadcast");
    expect(seen.map((e) => e.type)).toEqual(["ADDED", "MODIFIED", "MODIFIED"]);
    // 7. delete
    await t.must("DELETE", `${ipAddressesPath}/255.255.255.255`);
    expect(await getIPAddress(t, "255.255.255.255")).toBeUndefined();
    // 8. deletecollection by label, then none left
    await t.must("DELETE", `${ipAddressesPath}?labelSelector=type%3Dlink-local`);
    expect((await t.must("GET", `${ipAddressesPath}?labelSelector=type%3Dlink-local`)).items).toHaveLength(0);
  });
});

describe.each(allModes)("Service CIDRs [%s]", (mode) => {
  const cms: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const s of cms) await s();
  });
  it("[sig-network] Service CIDRs should create Services and serve on different Service CIDRs (API part)", async () => {
    const t = await api(mode);
    if (mode === "bitmap") {
      // Without the IPAddress allocator only the flag range allocates.
      const r = await t.call("POST", servicesPath(), service("svc-cidr", { type: "NodePort", clusterIP: "203.0.113.10" }));
      expect(r.status).toBe(422);
      expect(r.body.message).toContain("the provided IP (203.0.113.10) is not in the valid range. The range of valid IPs is 10.96.0.0/16");
      return;
    }
    const cm = await startControllerManager(t.kubeconfigFile());
    cms.push(() => cm.stop());
    await cm.synced();
    await t.must("POST", serviceCIDRsPath, serviceCIDR("test-svc-cidr", "203.0.113.0/24"));
    await waitServiceCIDRReady(t, "test-svc-cidr");
    let svc: Json;
    for (let i = 10; i < 15 && !svc; i++) {
      const r = await t.call("POST", servicesPath(), service("svc-cidr", { type: "NodePort", clusterIP: `203.0.113.${i}` }));
      if (r.status === 201) svc = r.body;
    }
    expect(svc.spec.clusterIP).toBe("203.0.113.10");
    expect(svc.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    expect((await getIPAddress(t, "203.0.113.10")).spec.parentRef).toMatchObject({
      resource: "services",
      namespace: "default",
      name: "svc-cidr",
    });
    await cm.stop();
  });
});
