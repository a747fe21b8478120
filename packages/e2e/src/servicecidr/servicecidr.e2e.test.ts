/**
 * Upstream test/integration/servicecidr/servicecidr_test.go: new ServiceCIDRs extend a full flag
 * range, and ServiceCIDR deletion is gated by the controller-manager's ServiceCIDR controller
 * (finalizer removed 10 s after deletion when no IPAddress would be orphaned). In-process apiserver,
 * controller-manager as a child process. Bitmap mode has no ServiceCIDR allocation: there the test
 * checks that a ServiceCIDR adds nothing.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AllocatorMode } from "@servicenet/apiserver";
import {
  createService,
  getIPAddress,
  getServiceCIDR,
  readyCondition,
  service,
  serviceCIDR,
  serviceCIDRsPath,
  servicesPath,
  waitServiceCIDRGone,
  waitServiceCIDRReady,
} from "./api.ts";
import { eventually } from "@servicenet/testing";
import { ipAddressModes, startApi, startControllerManager, type TestApi } from "./harness.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});
async function withControllerManager(mode: AllocatorMode, range: string): Promise<TestApi> {
  const t = await startApi({ mode, range });
  cleanups.push(() => t.close());
  const cm = await startControllerManager(t.kubeconfigFile());
  cleanups.push(() => cm.stop());
  await cm.synced();
  return t;
}
const inCIDR = (ip: string, prefix: string) => ip.startsWith(prefix);

async function fillSlash29(t: TestApi, ns = "default"): Promise<void> {
  for (let i = 0; i < 5; i++) await createService(t, service(`service-${i}`), ns);
  const r = await t.call("POST", servicesPath(ns), service("fail"));
  expect(r.status).toBe(500);
  expect(r.body.message).toContain("range is full");
}

describe("ServiceCIDR [bitmap]", () => {
  it("TestServiceAllocNewServiceCIDR (bitmap): a new ServiceCIDR does not extend the flag range", async () => {
    const t = await startApi({ mode: "bitmap", range: "192.168.0.0/29" });
    cleanups.push(() => t.close());
    await fillSlash29(t);
    await t.must("POST", serviceCIDRsPath, serviceCIDR("test2", "10.168.0.0/24"));
    const r = await t.call("POST", servicesPath(), service("service-10"));
    expect(r.body.message).toContain("range is full");
  });
});

describe.each(ipAddressModes)("ServiceCIDR [%s]", (mode) => {
  it("TestServiceAllocNewServiceCIDR: /29 full, ServiceCIDR 10.168.0.0/24 Ready, 140 more Services", async () => {
    const t = await withControllerManager(mode, "192.168.0.0/29");
    await fillSlash29(t);
    await t.must("POST", serviceCIDRsPath, serviceCIDR("test2", "10.168.0.0/24"));
    await waitServiceCIDRReady(t, "test2", 60_000);
    const started = performance.now();
    for (let i = 10; i < 150; i++) {
      const s = await createService(t, service(`service-${i}`));
      expect(inCIDR(s.spec.clusterIP, "10.168.0.")).toBe(true);
    }
    console.log(
      `TestServiceAllocNewServiceCIDR [${mode}]: 140 Services from the new ServiceCIDR in ${Math.round(performance.now() - started)} ms`,
    );
  });

  it("TestServiceCIDRDeletion: contained ServiceCIDRs delete at once, the last one holding an IP waits for its Service", async () => {
    const t = await withControllerManager(mode, "192.168.0.0/29");
    const ns = "test-service-cidr-deletion";
    await t.must("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
    await fillSlash29(t, ns);
    const t0 = performance.now();
    // cidr1 equals the default: deletable although its range holds IPs
    await t.must("POST", serviceCIDRsPath, serviceCIDR("cidr1", "192.168.0.0/29"));
    await waitServiceCIDRReady(t, "cidr1", 30_000);
    await t.must("DELETE", `${serviceCIDRsPath}/cidr1`);
    await waitServiceCIDRGone(t, "cidr1");
    const cidr1Ms = performance.now() - t0;
    // cidr2 serves a new Service
    await t.must("POST", serviceCIDRsPath, serviceCIDR("cidr2", "10.0.0.0/24"));
    await waitServiceCIDRReady(t, "cidr2", 30_000);
    const svc = await createService(t, service("new-cidr-service"), ns);
    expect(inCIDR(svc.spec.clusterIP, "10.0.0.")).toBe(true);
    // cidr3 contains cidr2: cidr2 becomes deletable
    await t.must("POST", serviceCIDRsPath, serviceCIDR("cidr3", "10.0.0.0/16"));
    await waitServiceCIDRReady(t, "cidr3", 30_000);
    await t.must("DELETE", `${serviceCIDRsPath}/cidr2`);
    await waitServiceCIDRGone(t, "cidr2");
    // cidr3 is blocked by the Service's IPAddress: Ready=False Terminating, finalizer kept
    await t.must("DELETE", `${serviceCIDRsPath}/cidr3`);
    const blocked = await eventually(
      async () => {
        const sc = await getServiceCIDR(t, "cidr3");
        return readyCondition(sc)?.status === "False" ? sc : undefined;
      },
      { what: "cidr3 Ready=False", timeoutMs: 30_000 },
    );
    expect(readyCondition(blocked)).toMatchObject({
      reason: "Terminating",
      message: "There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR",
    });
    expect(blocked.metadata.finalizers).toEqual(["networking.k8s.io/service-cidr-finalizer"]);
    // no new allocation from a deleting ServiceCIDR
    const r = await t.call("POST", servicesPath(ns), service("after-delete"));
    expect(r.body.message).toContain("range is full");
    await new Promise((res) => setTimeout(res, 11_000));
    expect(await getServiceCIDR(t, "cidr3")).toBeDefined();
    // delete the Service holding the IP: cidr3 goes
    await t.must("DELETE", `${servicesPath(ns)}/new-cidr-service`);
    await eventually(async () => (await getIPAddress(t, svc.spec.clusterIP)) === undefined, {
      what: "IPAddress released",
      timeoutMs: 15_000,
    });
    const t3 = performance.now();
    await waitServiceCIDRGone(t, "cidr3");
    console.log(
      `TestServiceCIDRDeletion [${mode}]: cidr1 gone ${Math.round(cidr1Ms)} ms after create, cidr3 ${Math.round(performance.now() - t3)} ms after its last IP went`,
    );
  });
});
