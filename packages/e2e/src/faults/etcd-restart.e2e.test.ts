/**
 * Faults: restart etcd under load. A private etcd (own port and data dir) backs one
 * `servicenet up`; while 8 workers create Services, etcd is SIGKILLed, left down for a few
 * seconds and restarted on the same data. The apiserver must stay up, answer every request
 * during the outage with a Status error (5xx with a message) instead of hanging or dropping the
 * connection, recover by itself, and keep every acknowledged write.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiClientFromKubeconfig, listAll, type ApiClient } from "./api-client.ts";
import { ackMismatches } from "./burst.ts";
import { expectAllocationInvariants } from "./invariants.ts";
import { ackedOf, errorSummary, startLoad } from "./load.ts";
import { etcdBinary, freePort, freePortPair, startApiserverProc, startEtcdProc, tempDir, type Proc } from "../framework/processes.ts";

const etcd = etcdBinary();
if (!etcd) console.warn("faults/etcd-restart: no etcd binary on PATH; skipped");
const outageMs = 4_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!etcd)("etcd killed and restarted under create load", () => {
  // Made in the test, not at collection: a test filtered out by -t runs no afterAll to remove it.
  let dir = "";
  const procs: Proc[] = [];
  let c: ApiClient | undefined;
  afterAll(async () => {
    c?.close();
    for (const p of procs.reverse()) await p.kill("SIGTERM");
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("answers Status errors during the outage, recovers, and keeps acknowledged writes", async () => {
    dir = tempDir("etcd-restart");
    const etcdPort = await freePortPair();
    const etcdDir = path.join(dir, "etcd");
    let db = await startEtcdProc({ bin: etcd!, dataDir: etcdDir, port: etcdPort });
    procs.push(db);
    const api = await startApiserverProc({
      dataDir: path.join(dir, "up"),
      port: await freePort(),
      args: ["--datastore-endpoint", db.endpoint],
    });
    procs.push(api);
    c = apiClientFromKubeconfig(api.kubeconfigPath);

    const load = startLoad(c, { prefix: "load", concurrency: 8 });
    await sleep(2_000);
    const killAt = performance.now();
    await db.kill("SIGKILL");
    await sleep(outageMs);
    const restartAt = performance.now();
    db = await startEtcdProc({ bin: etcd!, dataDir: etcdDir, port: etcdPort });
    procs.push(db);
    const etcdReadyAt = performance.now();
    // Recovered = a create that started after etcd was back was acknowledged.
    const deadline = Date.now() + 60_000;
    while (!load.samples.some((s) => s.created && s.start >= etcdReadyAt) && Date.now() < deadline) await sleep(50);
    const recoveredAt = load.samples
      .filter((s) => s.created && s.start >= etcdReadyAt)
      .map((s) => s.end)
      .sort((a, b) => a - b)[0];
    await sleep(2_000);
    const samples = await load.stop();

    expect(api.alive(), `apiserver died:\n${api.output().slice(-3000)}`).toBe(true);
    expect(recoveredAt, "no acknowledged create after etcd came back").toBeDefined();
    // No hangs and no dropped connections: every request got an HTTP answer.
    const unanswered = samples.filter((s) => s.status === 0);
    expect(unanswered.map((s) => `${s.name}: ${s.error?.message}`).slice(0, 5)).toEqual([]);
    // Every error is a proper Status: 5xx, kind Status, a message, code matching the HTTP status.
    const errors = samples.filter((s) => s.error);
    const improper = errors.filter(
      (s) => !(s.status >= 500 && s.error?.kind === "Status" && s.error.code === s.status && (s.error.message ?? "") !== ""),
    );
    expect(improper.map((s) => `${s.status} ${JSON.stringify(s.error)}`).slice(0, 5)).toEqual([]);

    const acked = ackedOf(samples);
    const stored = await listAll(c, "/api/v1/namespaces/default/services");
    expect(ackMismatches(acked, stored)).toEqual([]);
    const report = await expectAllocationInvariants(c);
    // Creating and deleting work normally afterwards.
    const after = await c.call("POST", "/api/v1/namespaces/default/services", {
      metadata: { name: "after-outage" },
      spec: { ipFamilyPolicy: "RequireDualStack", ports: [{ port: 80 }] },
    });
    expect(after.status).toBe(201);
    expect((await c.call("DELETE", "/api/v1/namespaces/default/services/after-outage")).status).toBe(200);

    const during = samples.filter((s) => s.end >= killAt && s.start <= etcdReadyAt);
    const maxLatency = Math.max(...samples.map((s) => s.end - s.start));
    const storedUnacked = stored.filter((s) => s.metadata.name.startsWith("load-") && !acked.has(s.metadata.name)).length;
    console.log(
      `e2e faults/etcd-restart: ${samples.length} creates, ${acked.size} acknowledged (all stored with the same IPs), ` +
        `${during.length} overlapped the ${outageMs} ms outage; errors: ${errorSummary(samples)}; ` +
        `etcd restart ready in ${Math.round(etcdReadyAt - restartAt)} ms, first acknowledged create ${Math.round((recoveredAt ?? NaN) - etcdReadyAt)} ms after that; ` +
        `max request latency ${Math.round(maxLatency)} ms; ${storedUnacked} Services stored without an acknowledgement; ` +
        `${report.clusterIPs} ClusterIPs, ${report.nodePorts} NodePorts, none held twice`,
    );
  });
});
