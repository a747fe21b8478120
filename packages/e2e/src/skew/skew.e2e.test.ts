/**
 * Version skew (upstream TestSkewedAllocators and
 * TestSkewAllocatorsRollout): two apiserver PROCESSES on one storage, one legacy bitmap-only
 * (`MultiCIDRServiceAllocator=false`) and one dual-write (the 1.33 defaults). 4,000 concurrent
 * creates spread over both (dynamic single/dual-stack, and 100 static IPs each asked of both at
 * once), then deletes across sides concurrent with more creates. Storage (read directly) must
 * show no ClusterIP twice, a bitmap bit for every Service IP in the flag ranges, and, once the
 * dual-write side's RepairIPAddress caught up, an IPAddress for every Service. Then both restart
 * IPAddress-only (`DisableAllocatorDualWrite=true`): the first repair pass gives every Service its
 * IPAddress before /readyz, and orphans are collected after the 60 s grace.
 * On SQLite (one state.db) and on etcd (SERVICENET_ETCD_ENDPOINTS, under a fresh --etcd-prefix that is deleted afterwards),
 * both at once: each case spends most of phase 3 waiting out the grace, the other case's work fills it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { settle, orphanWaitMs } from "./settle.ts";
import { etcdFromEnv, gates, sharedCluster, upArgs, type SharedBackend, type SharedCluster } from "./shared-cluster.ts";
import { auditLine } from "./storage-audit.ts";
import { deleteOn, rejectionsByMessage, runShares, skewShares } from "./workload.ts";

const ranges = "10.96.0.0/16,fd00:10:96::/112";
/** Creates in phase 1 (4,000 by default); SKEW_CREATES lowers it on a slow machine. */
const total = Number(process.env["SKEW_CREATES"] ?? 4000);
const pairs = Math.min(100, Math.floor(total / 40));
const dynamic = total - 2 * pairs;
const staticIP = (k: number): string => `10.96.0.${10 + k}`;
const deletes = Math.floor(total / 8);
const moreCreates = Math.floor(total / 14);

const t0 = performance.now();
const progress = (backend: string, m: string): void =>
  console.log(`skew ${backend} +${Math.round((performance.now() - t0) / 1000)} s: ${m}`);
const etcd = etcdFromEnv("skew/skew");
const backends: SharedBackend[] = [{ name: "sqlite" }, ...(etcd ? [{ name: "etcd" as const, endpoint: etcd }] : [])];

describe.concurrent.each(backends)("skewed allocators (bitmap-only + dual-write) on one $name", (backend) => {
  let cluster: SharedCluster | undefined;
  afterAll(async () => {
    await cluster?.stop();
  });

  it(`TestSkewAllocatorsRollout at ${total} creates: no duplicate, every IP has its bit and (after repair) its IPAddress; then IPAddress-only repair converges`, async () => {
    cluster = await sharedCluster(backend, "skew");
    const old = await cluster.add("old", upArgs(gates.bitmap, ranges));
    const neu = await cluster.add("new", upArgs(gates.dualWrite, ranges));
    const store = await cluster.store();

    // Phase 1: `total` concurrent creates, half per apiserver.
    const shares = skewShares(old, neu, { prefix: "skew", dynamic, pairs, staticIP, dualStack: true });
    const [ra, rb] = await runShares(shares);
    progress(backend.name, `phase 1: ${ra!.acked.size}+${rb!.acked.size} acked in ${ra!.elapsedMs}/${rb!.elapsedMs} ms`);
    for (const r of [ra!, rb!]) expect([...r.unknown.values()], `${r.member.name}: creates without an answer`).toEqual([]);
    const rejected = [...ra!.rejected, ...rb!.rejected];
    expect(
      rejected.every(([n]) => n.includes("-static-")),
      `dynamic creates refused: ${rejected
        .filter(([n]) => !n.includes("-static-"))
        .slice(0, 3)
        .join("; ")}`,
    ).toBe(true);
    expect(rejected.length, "exactly one create of each contested static IP fails").toBe(pairs);
    for (let k = 0; k < pairs; k++)
      expect(Number(ra!.acked.has(`skew-static-a-${k}`)) + Number(rb!.acked.has(`skew-static-b-${k}`))).toBe(1);
    const created = ra!.acked.size + rb!.acked.size;
    const afterCreate = await settle(store, "after the creates", (a) => a.missingBits.length === 0);
    const ipaddrs = await settle(store, "IPAddresses for the bitmap side's Services", (a) => a.missingIPAddresses.length === 0, 60_000);
    const bits1 = await settle(store, "no leaked bits", (a) => a.extraBits.length === 0, 30_000);
    expect(bits1.audit.services).toBe(created + 1);
    progress(backend.name, `phase 1 settled: IPAddresses +${ipaddrs.ms} ms, bits +${bits1.ms} ms`);

    // Phase 2: deletes across sides (each side deletes Services the other made too) and more creates, at once.
    const names = [...ra!.acked.keys(), ...rb!.acked.keys()].filter((n) => !n.includes("-static-")).sort();
    const victims = names.filter((_, i) => i % Math.floor(names.length / deletes) === 0).slice(0, deletes);
    const more = skewShares(old, neu, { prefix: "skew2", dynamic: moreCreates, pairs: 0, staticIP, dualStack: true });
    const [da, db, [ma, mb]] = await Promise.all([
      deleteOn(
        old,
        victims.filter((_, i) => i % 2 === 0),
        8,
      ),
      deleteOn(
        neu,
        victims.filter((_, i) => i % 2 === 1),
        8,
      ),
      runShares(more, 8),
    ]);
    progress(backend.name, `phase 2 done: deletes ${da.perSecond}/${db.perSecond}/s`);
    expect([...da.bad, ...db.bad]).toEqual([]);
    expect([...ma!.rejected.values(), ...mb!.rejected.values(), ...ma!.unknown.values(), ...mb!.unknown.values()]).toEqual([]);
    const afterDelete = await settle(store, "after the deletes", (a) => a.missingBits.length === 0, 5_000);
    const p2 = await settle(
      store,
      "phase 2 converged (IPAddresses and bitmap)",
      (a) => a.missingIPAddresses.length === 0 && a.extraBits.length === 0,
      60_000,
    );
    expect(p2.audit.services).toBe(created + 1 - deletes + moreCreates);
    const orphansBefore = p2.audit.orphans.length;
    progress(backend.name, `phase 2 settled in ${p2.ms} ms`);

    // Phase 3: both IPAddress-only; readiness waits for RepairIPAddress's first pass.
    const restartStart = performance.now();
    await cluster.restart(old, upArgs(gates.ipaddress, ranges));
    await cluster.restart(neu, upArgs(gates.ipaddress, ranges));
    const restartMs = Math.round(performance.now() - restartStart);
    const ready = await settle(store, "IPAddress-only after restart", (a) => a.missingIPAddresses.length === 0, 1_000);
    progress(backend.name, `phase 3 restarted in ${restartMs} ms: ${auditLine(ready.audit)}`);
    const orphanStart = performance.now();
    await settle(
      store,
      "orphans collected after the 60 s grace",
      (a) => a.orphans.length === 0 && a.missingIPAddresses.length === 0,
      orphanWaitMs(ready.audit),
    );
    const orphanMs = Math.round(performance.now() - orphanStart);
    const last = skewShares(old, neu, { prefix: "skew3", dynamic: 200, pairs: 0, staticIP, dualStack: true });
    const [la, lb] = await runShares(last, 8);
    expect([...la!.rejected.values(), ...lb!.rejected.values()]).toEqual([]);
    const final = await settle(store, "IPAddress-only creates", (a) => a.missingIPAddresses.length === 0 && a.orphans.length === 0, 5_000);

    const refusals = [ra!, rb!].flatMap((r) => [...rejectionsByMessage(r)].map(([m, n]) => `${n}x on ${r.member.name}: ${m}`)).join(" | ");
    console.log(
      `e2e skew ${backend.name}: phase 1 ${ra!.acked.size + ra!.rejected.size} creates on bitmap-only at ${ra!.perSecond}/s and ${rb!.acked.size + rb!.rejected.size} on dual-write at ${rb!.perSecond}/s ` +
        `(${ra!.elapsedMs}/${rb!.elapsedMs} ms), ${created} acked, refused: ${refusals}; duplicates 0; right after: ${auditLine(afterCreate.audit)}; ` +
        `IPAddresses for the bitmap side's Services complete ${ipaddrs.ms} ms later, leaked bits gone ${bits1.ms} ms after that. ` +
        `Phase 2: ${deletes} deletes at ${da.perSecond}/s (bitmap side) and ${db.perSecond}/s (dual-write) with ${moreCreates} creates at ${ma!.perSecond}/${mb!.perSecond}/s; ` +
        `right after: ${auditLine(afterDelete.audit)}; converged in ${p2.ms} ms (${orphansBefore} orphans within the grace). ` +
        `Phase 3: both restarted IPAddress-only in ${restartMs} ms, ready with ${auditLine(ready.audit)}; orphans collected in ${orphanMs} ms; 200 more creates at ${la!.perSecond}/${lb!.perSecond}/s; final ${auditLine(final.audit)}`,
    );
  }, 1_200_000); // a ceiling for both cases sharing a loaded machine, never a wait
});
