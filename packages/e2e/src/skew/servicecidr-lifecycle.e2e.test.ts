/**
 * ServiceCIDR lifecycle against the real processes (issues 7 and 10; upstream
 * TestServiceAllocNewServiceCIDR and TestServiceCIDRDeletion): `servicenet up` on a /28 flag
 * range plus the controller-manager. Fill the default ServiceCIDR (`range is full`), add a second
 * one and keep allocating from it; delete it while in use: it stays, Ready=False reason
 * Terminating (set as soon as the controller sees IPAddresses in it, as upstream's sync), and new
 * Services no longer land in it; delete its Services: it is gone (the finalizer goes once the 10 s
 * grace since deletionTimestamp is over). Once in dual-write mode (the 1.33 default) and once IPAddress-only.
 */
import { afterAll, describe, expect, it } from "vitest";
import { listAll } from "../faults/api-client.ts";
import { deleteServices } from "../faults/fill.ts";
import { startControllerManagerProc, type Proc } from "../framework/processes.ts";
import { canonicalIP } from "../faults/invariants.ts";
import { createServiceCIDR, getServiceCIDR, ipAddressesPath, readyCondition, serviceCIDRsPath } from "./api.ts";
import { gates, sharedCluster, until, upArgs, type SharedCluster } from "./shared-cluster.ts";
import { service } from "./workload.ts";

const flagRange = "10.96.0.0/28";
const second = "10.97.0.0/24";
const inSecond = (ip: string): boolean => ip.startsWith("10.97.0.");

describe.each([
  { mode: "dual-write", gate: gates.dualWrite },
  { mode: "ipaddress", gate: gates.ipaddress },
])("ServiceCIDR lifecycle ($mode)", ({ mode, gate }) => {
  let cluster: SharedCluster | undefined;
  let cm: Proc | undefined;
  afterAll(async () => {
    await cm?.kill("SIGTERM");
    await cluster?.stop();
  });

  it("TestServiceAllocNewServiceCIDR / TestServiceCIDRDeletion: a second ServiceCIDR extends a full cluster; deleting it while in use is blocked (Terminating) until its Services go", async () => {
    cluster = await sharedCluster({ name: "sqlite" }, `cidr-${mode}`);
    const api = await cluster.add("apiserver", upArgs(gate, flagRange));
    cm = await startControllerManagerProc(api.kubeconfigPath);
    const c = api.client;
    const post = (name: string) => c.call("POST", "/api/v1/namespaces/default/services", service(name));

    // The /28 has 14 usable addresses; kubernetes.default holds the first.
    const first: string[] = [];
    for (let i = 0; i < 13; i++) {
      const r = await post(`fill-${i}`);
      expect(r.status, JSON.stringify(r.body?.message)).toBe(201);
      first.push(r.body.spec.clusterIP);
    }
    const full = await post("one-too-many");
    expect(full.status).not.toBe(201);
    expect(full.body.message).toContain("range is full");

    await createServiceCIDR(c, "second", [second]);
    const readyAt = performance.now();
    await until(
      "second Ready=True",
      async () => (readyCondition(await getServiceCIDR(c, "second"))?.status === "True" ? true : undefined),
      15_000,
    );
    const readyMs = Math.round(performance.now() - readyAt);
    const more = await until(
      "creates land in the second ServiceCIDR",
      async () => ((await post("more-0")).status === 201 ? true : undefined),
      10_000,
    );
    expect(more).toBe(true);
    const moreNames = ["more-0"];
    for (let i = 1; i < 20; i++) {
      const r = await post(`more-${i}`);
      expect(r.status, JSON.stringify(r.body?.message)).toBe(201);
      moreNames.push(`more-${i}`);
    }
    const services = await listAll(c, "/api/v1/namespaces/default/services");
    const moreIPs = services.filter((s) => moreNames.includes(s.metadata.name)).map((s) => s.spec.clusterIP as string);
    expect(moreIPs.every(inSecond), `IPs: ${moreIPs.join(",")}`).toBe(true);
    const addresses = new Set((await listAll(c, ipAddressesPath)).map((a) => canonicalIP(a.metadata.name)));
    expect(moreIPs.filter((ip) => !addresses.has(ip))).toEqual([]);

    // Delete it while 20 Services use it: blocked, Ready=False Terminating.
    const delAt = performance.now();
    expect([200, 202]).toContain((await c.call("DELETE", `${serviceCIDRsPath}/second`)).status);
    const blocked = await until(
      "second Terminating",
      async () => {
        const sc = await getServiceCIDR(c, "second");
        const rc = readyCondition(sc);
        return rc?.status === "False" && rc.reason === "Terminating" ? sc : undefined;
      },
      25_000,
    );
    const blockedMs = Math.round(performance.now() - delAt);
    expect(blocked.metadata.deletionTimestamp).toBeTruthy();
    expect(readyCondition(blocked).message).toBeTruthy();
    // A deleting ServiceCIDR is never allocated from: the cluster is full again.
    const refused = await post("while-terminating");
    expect(refused.status).not.toBe(201);
    const staticIn = await c.call(
      "POST",
      "/api/v1/namespaces/default/services",
      service("static-in-terminating", { clusterIP: "10.97.0.200" }),
    );
    expect(staticIn.status, "a static IP of a deleting ServiceCIDR").toBe(422);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await getServiceCIDR(c, "second"), "still blocked").toBeDefined();

    const relAt = performance.now();
    expect(await deleteServices(c, moreNames)).toEqual([]);
    await until("second gone", async () => ((await getServiceCIDR(c, "second")) === undefined ? true : undefined), 25_000);
    const goneMs = Math.round(performance.now() - relAt);

    console.log(
      `e2e skew/servicecidr-lifecycle ${mode}: /28 full after 13 creates (${JSON.stringify(full.body.message)}); second ServiceCIDR Ready in ${readyMs} ms, 20 more creates all in ${second} with IPAddresses; ` +
        `delete while in use: Ready=False Terminating after ${blockedMs} ms (${JSON.stringify(readyCondition(blocked).message)}); create refused meanwhile (${refused.status}: ${refused.body?.message}); static ${staticIn.status}: ${staticIn.body?.message}; ` +
        `gone ${goneMs} ms after its 20 Services were deleted`,
    );
  });
});
