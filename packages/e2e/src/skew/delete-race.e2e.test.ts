/**
 * The ServiceCIDR delete race (KEP-1880 (keps/sig-network/1880-multiple-service-cidrs), "the delete race"): two apiserver processes on
 * one SQLite file (A dual-write, B IPAddress-only) and the controller-manager on A. The default
 * /28 is full, so every create lands in the extra ServiceCIDR `race-<n>`. While B creates
 * Services into it (dynamic and static IPs), the ServiceCIDR is deleted through A. Once the dust
 * settles, every Service IP must lie in a live (not deleting) ServiceCIDR, or the deletion must
 * be blocked: the ServiceCIDR still exists with Ready=False reason Terminating. Then its Services
 * are deleted and it must go. Rounds differ in whether a Service already used the CIDR.
 */
import { cidrContains, parseCIDR, parseIP } from "@servicenet/api";
import { afterAll, describe, expect, it } from "vitest";
import { listAll, type ApiClient, type Json } from "../faults/api-client.ts";
import { deleteServices } from "../faults/fill.ts";
import { serviceIPs } from "../faults/invariants.ts";
import { startControllerManagerProc, type Proc } from "../framework/processes.ts";
import { createServiceCIDR, eventWithReason, getServiceCIDR, ipAddressesPath, readyCondition, serviceCIDRsPath } from "./api.ts";
import { gates, sharedCluster, sleep, until, upArgs, type SharedCluster } from "./shared-cluster.ts";
import { service } from "./workload.ts";

const flagRange = "10.96.0.0/28";
const rounds = [
  { keepFirst: true, deleteAfterMs: 500 },
  { keepFirst: false, deleteAfterMs: 0 },
  { keepFirst: false, deleteAfterMs: 300 },
];
const createForMs = 3_000;

/** Services whose IPs no live ServiceCIDR covers (a deleting one counts only if it is blocked). */
function uncovered(services: Json[], cidrs: Json[]): string[] {
  const live = cidrs.filter((sc) => !sc.metadata.deletionTimestamp || readyCondition(sc)?.reason === "Terminating");
  const prefixes = live.flatMap((sc) => (sc.spec.cidrs as string[]).map((p) => parseCIDR(p)!));
  return services.flatMap((s) =>
    serviceIPs(s)
      .filter((ip) => !prefixes.some((p) => cidrContains(p, parseIP(ip)!)))
      .map((ip) => `${s.metadata.name} ${ip}`),
  );
}

/** Creates Services on `c` for `ms` (4 in flight), alternating dynamic and static IPs in `net`. */
async function createStream(
  c: ApiClient,
  prefix: string,
  net: string,
  ms: number,
): Promise<{ ok: Map<string, string>; refused: Map<string, number> }> {
  const ok = new Map<string, string>();
  const refused = new Map<string, number>();
  const end = Date.now() + ms;
  let n = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (Date.now() < end) {
        const i = n++;
        const spec = i % 2 === 0 ? {} : { clusterIP: `${net}.${10 + ((i >> 1) % 240)}` };
        const r = await c.call("POST", "/api/v1/namespaces/default/services", service(`${prefix}-${i}`, spec));
        if (r.status === 201) ok.set(`${prefix}-${i}`, r.body.spec.clusterIP);
        else {
          const m = `${r.status} ${String(r.body?.message)
            .replace(/\d+\.\d+\.\d+\.\d+/g, "<ip>")
            .replace(/"[^"]*"/, '"<name>"')}`;
          refused.set(m, (refused.get(m) ?? 0) + 1);
        }
      }
    }),
  );
  return { ok, refused };
}

/**
 * Known bug (reported): a Service deleted through one apiserver can get its IPAddress recreated by
 * the other apiserver's RepairIPAddress while that one's Service cache still holds it (SQLite
 * watch lag), leaving an orphan that blocks the ServiceCIDR deletion until the 60 s orphan GC.
 * Such IPAddresses (parent Service gone, ClusterIPNotAllocated event about it) are counted here
 * and deleted by hand so the rounds stay short.
 */
const recreated: string[] = [];
async function reap(c: ApiClient, net: string): Promise<void> {
  for (const x of (await listAll(c, ipAddressesPath)).filter((x) => String(x.metadata.name).startsWith(`${net}.`))) {
    const ref = x.spec.parentRef;
    if ((await c.call("GET", `/api/v1/namespaces/${ref.namespace}/services/${ref.name}`)).status !== 404) continue;
    if (Date.now() - Date.parse(x.metadata.creationTimestamp) < 2_000) continue;
    const ev = await eventWithReason(c, ref.namespace, "Service", ref.name, "ClusterIPNotAllocated");
    recreated.push(`${x.metadata.name} of deleted ${ref.name}${ev ? ` (event: ${ev.message})` : ""}`);
    await c.call("DELETE", `${ipAddressesPath}/${x.metadata.name}`);
  }
}

describe("ServiceCIDR deleted on apiserver A while apiserver B allocates from it (one SQLite file, controller-manager on A)", () => {
  let cluster: SharedCluster | undefined;
  let cm: Proc | undefined;
  afterAll(async () => {
    await cm?.kill("SIGTERM");
    await cluster?.stop();
  });

  it("never leaves a Service IP outside every live ServiceCIDR", async () => {
    cluster = await sharedCluster({ name: "sqlite" }, "race");
    const a = await cluster.add("a", upArgs(gates.dualWrite, flagRange));
    const b = await cluster.add("b", upArgs(gates.ipaddress, flagRange));
    cm = await startControllerManagerProc(a.kubeconfigPath);
    for (let i = 0; i < 13; i++)
      expect((await a.client.call("POST", "/api/v1/namespaces/default/services", service(`fill-${i}`))).status).toBe(201);
    const lines: string[] = [];

    for (const [r, round] of rounds.entries()) {
      const name = `race-${r}`;
      const net = `10.100.${r}`;
      await createServiceCIDR(a.client, name, [`${net}.0/24`]);
      // B allocates from it once its informer saw it (SQLite: polled every second).
      await until(
        `${name} usable on B`,
        async () =>
          (await b.client.call("POST", "/api/v1/namespaces/default/services", service(`${name}-first`, { clusterIP: `${net}.2` })))
            .status === 201
            ? true
            : undefined,
        15_000,
      );
      if (!round.keepFirst) {
        expect(await deleteServices(b.client, [`${name}-first`])).toEqual([]);
        await until(
          `${name}-first's IPAddress gone`,
          async () => ((await a.client.call("GET", `${ipAddressesPath}/${net}.2`)).status === 404 ? true : undefined),
          10_000,
        );
        await sleep(3_000);
        await reap(b.client, net);
      }
      const started = Date.now();
      const stream = createStream(b.client, name, net, createForMs);
      await sleep(round.deleteAfterMs);
      const del = await a.client.call("DELETE", `${serviceCIDRsPath}/${name}`);
      expect([200, 202]).toContain(del.status);
      const deletedAt = Date.now() - started;
      const { ok, refused } = await stream;
      // Settled: gone, or blocked (Ready=False Terminating) and staying that way past the 10 s grace.
      const outcome = await until(
        `${name} settled`,
        async () => {
          const sc = await getServiceCIDR(a.client, name);
          if (!sc) return "deleted";
          const rc = readyCondition(sc);
          return rc?.status === "False" && rc.reason === "Terminating" && Date.now() - started > deletedAt + 11_000
            ? "blocked (Ready=False Terminating)"
            : undefined;
        },
        30_000,
      );
      const services = await listAll(a.client, "/api/v1/services");
      const cidrs = await listAll(a.client, serviceCIDRsPath);
      expect(uncovered(services, cidrs), `round ${r}: Services outside every live ServiceCIDR`).toEqual([]);
      const landed = services.filter((s) => serviceIPs(s).some((ip) => ip.startsWith(`${net}.`))).map((s) => s.metadata.name as string);
      if (landed.length > 0) expect(outcome, `round ${r}: ${landed.length} Services in ${name}, yet it went`).not.toBe("deleted");
      // Release: its Services go, then so must it.
      const relAt = Date.now();
      expect(await deleteServices(a.client, landed)).toEqual([]);
      await until(
        `${name} gone after its Services`,
        async () => {
          if ((await getServiceCIDR(a.client, name)) === undefined) return true;
          await reap(b.client, net);
          return undefined;
        },
        25_000,
      );
      lines.push(
        `round ${r} (${round.keepFirst ? "in use before" : "empty before"}, deleted ${deletedAt} ms into the stream): ${ok.size} creates on B succeeded, ` +
          `${landed.length} Services in the deleting CIDR -> ${outcome}; refused: ${[...refused].map(([m, n]) => `${n}x ${m}`).join(" | ") || "none"}; gone ${Date.now() - relAt} ms after its Services were deleted`,
      );
    }
    console.log(
      `e2e skew/delete-race: ${lines.join("; ")}; IPAddresses recreated for deleted Services (bug, removed by hand): ${recreated.length}${recreated.length ? ` [${recreated.join("; ")}]` : ""}`,
    );
  });
});
