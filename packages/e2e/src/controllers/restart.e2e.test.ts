/**
 * controller-manager restarts and leader election against the real processes: the apiserver
 * (servicenet-up.js on SQLite) and one or two controller-manager.js processes.
 */
import { CoordinationV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import {
  clientsFor,
  createPod,
  createService,
  endpointsOf,
  pool,
  setReady,
  slicesOf,
  summarize,
  type Clients,
  type SliceView,
} from "./objects.ts";
import {
  identityOf,
  startApiserverProc,
  startControllerManagerProc,
  waitSynced,
  type ApiserverProc,
  type Proc,
} from "../framework/processes.ts";

/** These suites count the controllers' writes, which are debug output (V(4)). */
const writesLogged = ["-v", "4"];

const webPods = 150;
const services = ["web", "single", "gone", "headless"] as const;

type Snapshot = Record<string, { slices: SliceView[]; endpoints: Awaited<ReturnType<typeof endpointsOf>> }>;

async function snapshot(c: Clients): Promise<Snapshot> {
  const out: Snapshot = {};
  for (const s of services) out[s] = { slices: await slicesOf(c, s), endpoints: await endpointsOf(c, s) };
  return out;
}

const uids = (slices: readonly SliceView[]) => slices.map((s) => s.uid).sort();

describe("controller-manager SIGKILL and restart converge to the same objects", () => {
  let api: ApiserverProc;
  let cm: Proc | undefined;
  let c: Clients;
  beforeAll(async () => {
    api = await startApiserverProc();
    c = clientsFor(api.kubeConfig());
  });
  afterAll(async () => {
    await cm?.stop("SIGKILL");
    await api?.close();
  });

  let first: Snapshot;
  it(`reconciles web (${webPods} pods), single, gone and headless`, async () => {
    cm = await startControllerManagerProc(api.kubeconfigPath, { flags: writesLogged, synced: false });
    await waitSynced(cm);
    await createService(c, "web");
    await createService(c, "single", { ipFamilyPolicy: "SingleStack" });
    await createService(c, "gone");
    await createService(c, "headless", { clusterIP: "None" });
    await pool(
      Array.from({ length: webPods }, (_, i) => i),
      16,
      (i) => createPod(c, "web", i, i),
    );
    for (const [k, app] of ["single", "gone", "headless"].entries())
      for (let i = 0; i < 3; i++) await createPod(c, app, i, 200 + 10 * k + i);
    await eventually(
      async () => {
        const w = summarize(await slicesOf(c, "web"));
        const e = await endpointsOf(c, "web");
        return w["IPv4"]?.ready === webPods && w["IPv6"]?.ready === webPods && e?.ready === webPods ? w : undefined;
      },
      { timeoutMs: 60_000 },
    );
    await eventually(
      async () =>
        (await endpointsOf(c, "headless"))?.ready === 3 && summarize(await slicesOf(c, "headless"))["IPv4"]?.ready === 3 ? true : undefined,
      { timeoutMs: 20_000 },
    );
    first = await snapshot(c);
    expect(summarize(first.web!.slices)).toEqual({
      IPv4: { endpoints: 150, ready: 150, slices: 2, duplicates: [] },
      IPv6: { endpoints: 150, ready: 150, slices: 2, duplicates: [] },
    });
    expect(Object.keys(summarize(first.single!.slices))).toEqual(["IPv4"]);
  }, 120_000);

  it("SIGKILL + restart with nothing changed: no write at all (same names, uids, resourceVersions)", async () => {
    const killedAt = Date.now();
    expect(await cm!.stop("SIGKILL")).toBeNull();
    cm = await startControllerManagerProc(api.kubeconfigPath, { flags: writesLogged, synced: false });
    const synced = await waitSynced(cm);
    await new Promise((r) => setTimeout(r, 3_000)); // give a wrong controller time to write
    expect(await snapshot(c)).toEqual(first);
    expect(cm.count(/"msg":"(EndpointSlices|Endpoints) written"/)).toBe(0);
    console.log(
      `e2e restart: controller-manager SIGKILLed and restarted, caches synced ${synced - killedAt} ms after the kill; 0 writes, ${Object.values(first).reduce((n, s) => n + s.slices.length, 0)} slices unchanged`,
    );
  }, 60_000);

  it("SIGKILL mid-reconcile, changes while down, restart: converges without duplicates or leftovers", async () => {
    // A burst the controller is busy with when it dies: 50 readiness flips and 20 new pods.
    const burst = [
      ...Array.from({ length: 50 }, (_, i) => () => setReady(c, `web-${i}`, false)),
      ...Array.from({ length: 20 }, (_, i) => () => createPod(c, "web", webPods + i, webPods + i)),
    ];
    const from = cm!.lines.length;
    let sent = 0;
    const burstDone = pool(burst, 4, async (f) => (await f(), sent++));
    // Kill at the first web slice write after the burst began, while changes are still arriving.
    await cm!.waitFor(/"msg":"EndpointSlices written","key":"default\/web"/, 20_000, from);
    expect(await cm!.stop("SIGKILL")).toBeNull();
    const killedAt = Date.now();
    const sentAtKill = sent;
    const writesSeen = cm!.lines.slice(from).filter((l) => /"msg":"EndpointSlices written"/.test(l.text)).length;
    await burstDone;
    // While no controller runs: a Service and its pods go away, a pod turns ready again.
    await c.core.deleteNamespacedService({ name: "gone", namespace: "default" });
    for (let i = 0; i < 3; i++) await c.core.deleteNamespacedPod({ name: `gone-${i}`, namespace: "default" });
    await setReady(c, "web-0", true);
    const restartedAt = Date.now();
    cm = await startControllerManagerProc(api.kubeconfigPath, { flags: writesLogged, synced: false });
    const synced = await waitSynced(cm);
    const want = { endpoints: webPods + 20, ready: webPods + 20 - 49, slices: 2, duplicates: [] };
    const web = await eventually(
      async () => {
        const s = await slicesOf(c, "web");
        const w = summarize(s);
        const e = await endpointsOf(c, "web");
        return w["IPv4"]?.ready === want.ready && w["IPv6"]?.ready === want.ready && e?.ready === want.ready && e.notReady === 49
          ? s
          : undefined;
      },
      { timeoutMs: 30_000 },
    );
    const convergedAt = Date.now();
    await eventually(async () => ((await slicesOf(c, "gone")).length === 0 && (await endpointsOf(c, "gone")) === null ? true : undefined), {
      timeoutMs: 20_000,
    });
    await new Promise((r) => setTimeout(r, 2_000)); // settle: nothing more may be written
    expect(summarize(await slicesOf(c, "web"))).toEqual({ IPv4: want, IPv6: want });
    // Minimal churn: the web slices were updated in place, the other Services' objects not touched.
    expect(uids(await slicesOf(c, "web"))).toEqual(uids(first.web!.slices));
    expect(uids(web)).toEqual(uids(first.web!.slices));
    expect((await endpointsOf(c, "web"))?.uid).toBe(first.web!.endpoints!.uid);
    const now = await snapshot(c);
    expect(now.single).toEqual(first.single);
    expect(now.headless).toEqual(first.headless);
    expect(now.gone).toEqual({ slices: [], endpoints: null });
    console.log(
      `e2e restart: SIGKILL after ${writesSeen} slice write(s), ${sentAtKill} of a 70-change burst sent; the rest sent and 4 more changes made while down (${restartedAt - killedAt} ms); after the restart caches synced in ${synced - restartedAt} ms and all converged ${convergedAt - synced} ms later; web 170 endpoints / 121 ready in 2+2 slices, same uids; gone's slices and Endpoints deleted`,
    );
  }, 120_000);
});

const lease = { duration: 4_000, renew: 3_000, retry: 500 };
const leFlags = [
  ...writesLogged,
  "--leader-elect",
  `--leader-elect-lease-duration=${lease.duration}ms`,
  `--leader-elect-renew-deadline=${lease.renew}ms`,
  `--leader-elect-retry-period=${lease.retry}ms`,
];

describe("two controller-managers with --leader-elect: one leads, the other takes over after the lease expires", () => {
  let api: ApiserverProc;
  let a: Proc | undefined;
  let b: Proc | undefined;
  let c: Clients;
  let leases: CoordinationV1Api;
  const readLease = () => leases.readNamespacedLease({ name: "kube-controller-manager", namespace: "kube-system" });
  beforeAll(async () => {
    api = await startApiserverProc();
    c = clientsFor(api.kubeConfig());
    leases = api.kubeConfig().makeApiClient(CoordinationV1Api);
  });
  afterAll(async () => {
    await a?.stop("SIGKILL");
    await b?.stop("SIGKILL");
    await api?.close();
  });

  it("only the leader holds the Lease and writes", async () => {
    a = await startControllerManagerProc(api.kubeconfigPath, { flags: leFlags, synced: false });
    await a.waitFor(/"msg":"successfully acquired lease"/);
    await waitSynced(a);
    b = await startControllerManagerProc(api.kubeconfigPath, { flags: leFlags, synced: false });
    await b.waitFor(/"msg":"attempting to acquire leader lease"/);
    await createService(c, "one");
    for (let i = 0; i < 3; i++) await createPod(c, "one", i, i);
    await eventually(async () => (summarize(await slicesOf(c, "one"))["IPv6"]?.ready === 3 ? true : undefined), { timeoutMs: 20_000 });
    const l1 = await readLease();
    await new Promise((r) => setTimeout(r, 3 * lease.retry));
    const l2 = await readLease();
    expect(l2.spec).toMatchObject({ holderIdentity: identityOf(a), leaseDurationSeconds: lease.duration / 1000, leaseTransitions: 0 });
    expect(new Date(l2.spec!.renewTime!).getTime()).toBeGreaterThan(new Date(l1.spec!.renewTime!).getTime()); // the leader renews
    expect(a.count(/"msg":"EndpointSlices written","key":"default\/one"/)).toBeGreaterThan(0);
    // The standby never started a controller, so it cannot have written anything.
    expect(b.count(/"msg":"(successfully acquired lease|Starting controller|EndpointSlices written|Endpoints written)"/)).toBe(0);
  }, 60_000);

  it("SIGKILL the leader: the standby takes over only after the lease expires, then reconciles", async () => {
    const before = await slicesOf(c, "one");
    expect(await a!.stop("SIGKILL")).toBeNull();
    const killedAt = Date.now();
    // A change made while nobody leads: it must wait for the new leader.
    await createService(c, "two");
    for (let i = 0; i < 3; i++) await createPod(c, "two", i, 10 + i);
    let sliceSeenAt = 0;
    const acquired = b!.waitFor(/"msg":"successfully acquired lease"/, 30_000);
    const watch = eventually(async () => ((await slicesOf(c, "two")).length > 0 ? (sliceSeenAt = Date.now()) : undefined), {
      timeoutMs: 30_000,
      intervalMs: 20,
    });
    const acquiredAt = await acquired;
    await watch;
    const takeover = acquiredAt - killedAt;
    // The last renewal was at most one retry period before the kill; the lease runs from when b saw it.
    expect(takeover).toBeGreaterThanOrEqual(lease.duration - lease.retry);
    expect(takeover).toBeLessThan(lease.duration + 5 * lease.retry + 2_000);
    expect(sliceSeenAt).toBeGreaterThan(acquiredAt - 50); // no slice for "two" before b led (50 ms: log pipe delay)
    const l = await readLease();
    expect(l.spec).toMatchObject({ holderIdentity: identityOf(b!), leaseTransitions: 1 });
    await eventually(
      async () =>
        summarize(await slicesOf(c, "two"))["IPv4"]?.ready === 3 && (await endpointsOf(c, "two"))?.ready === 3 ? true : undefined,
      { timeoutMs: 20_000 },
    );
    // The new leader adopted the old leader's slices instead of duplicating them.
    expect(uids(await slicesOf(c, "one"))).toEqual(uids(before));
    // And it reconciles new changes.
    const flipAt = Date.now();
    await setReady(c, "one-0", false);
    await eventually(async () => (summarize(await slicesOf(c, "one"))["IPv4"]?.ready === 2 ? true : undefined), {
      timeoutMs: 10_000,
      intervalMs: 20,
    });
    const flipMs = Date.now() - flipAt;
    expect(await b!.stop("SIGTERM")).toBe(0);
    expect((await readLease()).spec?.holderIdentity ?? "").toBe(""); // released on SIGTERM
    console.log(
      `e2e leader election: lease ${lease.duration}ms/renew ${lease.renew}ms/retry ${lease.retry}ms; standby took over ${takeover} ms after SIGKILL of the leader ` +
        `(${(takeover / lease.duration).toFixed(2)}x lease duration); first slice of a Service created meanwhile ${sliceSeenAt - acquiredAt} ms after takeover; readiness flip reconciled in ${flipMs} ms; lease released on SIGTERM`,
    );
  }, 90_000);
});
