/**
 * Soak: informers across apiserver restarts and `etcdctl compact`. A private etcd backs
 * one `servicenet up` and a controller-manager. Pods are relabelled from Service to Service and
 * Services annotated in rounds of concurrent writes; between rounds the apiserver is restarted
 * (SIGTERM, SIGKILL) and etcd is compacted behind the apiserver's back. Watching all along:
 * - a client-node `makeInformer` on pods and on services (restarted on error, as its docs say);
 * - a resuming watcher that, like every reflector, re-watches from the last resourceVersion it
 *   saw and relists only after a 410; every acknowledged write (name@resourceVersion) must reach
 *   it as an event unless a 410 relist covered it (a write between its last RV and the relist);
 * - the controller-manager's informers, through what they produce: each Service's EndpointSlices
 *   must list exactly the pods that finally carry its label.
 * All must end with every object's final state; the counts are printed.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { KubeConfig, type KubernetesObject, type V1Pod, type V1Service } from "@kubernetes/client-node";
import { afterAll, describe, expect, it } from "vitest";
import { clientsFor, pool, slicesOf, summarize } from "../controllers/objects.ts";
import { eventually } from "@servicenet/testing";
import { retry, startInformer, startResumer, versions } from "./soak-watchers.ts";
import {
  compactEtcd,
  etcdBinary,
  freePort,
  freePortPair,
  startApiserverProc,
  startControllerManagerProc,
  startEtcdProc,
  tempDir,
  type Proc,
} from "../framework/processes.ts";

const etcd = etcdBinary();
if (!etcd) console.warn("faults/informer-soak: no etcd binary on PATH; skipped");

const services = 12;
const pods = 36;
const rounds = 5;
const ns = "default";
const podsPath = `/api/v1/namespaces/${ns}/pods`;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const svcName = (j: number): string => `soak-s${j}`;
const podName = (i: number): string => `soak-p${i}`;
const podIP = (i: number): string => `10.244.7.${i + 1}`;
const rvOf = (o: KubernetesObject): number => Number(o.metadata?.resourceVersion);

describe.skipIf(!etcd)("informers across apiserver restarts and etcd compaction", () => {
  let dir = "";
  const procs: Proc[] = [];
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    // Bounded, so that a watcher stuck on a dead apiserver never keeps the processes alive.
    for (const s of stops.reverse()) await Promise.race([s().catch(() => {}), sleep(5_000)]);
    // Bounded too: a process still there 15 s after SIGTERM is reported and killed, so that the
    // hook ends (a CI run once hung here for the whole hook timeout without saying which one).
    for (const p of procs.reverse()) {
      let done = false;
      const term = p.kill("SIGTERM").then(() => void (done = true));
      await Promise.race([term, sleep(15_000)]);
      if (!done) {
        console.warn(`faults/informer-soak: ${p.name} still running 15 s after SIGTERM; SIGKILL`);
        await p.kill("SIGKILL");
      }
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("see every object's final state, with no acknowledged write lost", async () => {
    dir = tempDir("informer-soak");
    const db = await startEtcdProc({ bin: etcd!, dataDir: path.join(dir, "etcd"), port: await freePortPair() });
    procs.push(db);
    const port = await freePort();
    const dataDir = path.join(dir, "up");
    const startApi = async (): Promise<Proc> => {
      const p = await startApiserverProc({ dataDir, port, args: ["--datastore-endpoint", db.endpoint] });
      procs.push(p);
      return p;
    };
    let api = await startApi();
    const kubeconfig = path.join(dataDir, "kubeconfig");
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    const c = clientsFor(kc);
    procs.push(await startControllerManagerProc(kubeconfig));

    const acked = new Map<string, number>();
    const ack = (o: KubernetesObject): void => void acked.set(`${o.metadata!.name}@${o.metadata!.resourceVersion}`, rvOf(o));
    await pool(
      Array.from({ length: services }, (_, j) => j),
      8,
      async (j) => {
        await c.core.createNamespacedService({
          namespace: ns,
          body: { metadata: { name: svcName(j) }, spec: { selector: { app: svcName(j) }, ports: [{ port: 80, targetPort: 8080 }] } },
        });
      },
    );

    const podInformer = startInformer<V1Pod>(kc, podsPath, () => c.core.listNamespacedPod({ namespace: ns }));
    const svcInformer = startInformer<V1Service>(kc, `/api/v1/namespaces/${ns}/services`, () =>
      c.core.listNamespacedService({ namespace: ns }),
    );
    await podInformer.start();
    await svcInformer.start();
    stops.push(podInformer.stop, svcInformer.stop);
    const resumer = startResumer(kc, c, ns);
    stops.push(resumer.stop);
    await resumer.listed;

    await pool(
      Array.from({ length: pods }, (_, i) => i),
      16,
      async (i) => {
        const created = await c.core.createNamespacedPod({
          namespace: ns,
          body: {
            metadata: { name: podName(i), labels: { app: svcName(i % services) } },
            spec: { containers: [{ name: "c", image: "x", ports: [{ containerPort: 8080 }] }] },
          },
        });
        ack(created);
        created.status = { phase: "Running", podIP: podIP(i), podIPs: [{ ip: podIP(i) }], conditions: [{ type: "Ready", status: "True" }] };
        ack(await c.core.replaceNamespacedPodStatus({ name: podName(i), namespace: ns, body: created }));
      },
    );

    const compact = (): Promise<number> => compactEtcd(db.endpoint);
    const faults: Record<number, () => Promise<string>> = {
      0: async () => {
        await api.kill("SIGTERM");
        api = await startApi();
        return "apiserver SIGTERM + restart";
      },
      1: async () => `etcd compact ${await compact()}`,
      2: async () => {
        await api.kill("SIGKILL");
        await sleep(500);
        const rev = await compact();
        api = await startApi();
        return `apiserver SIGKILL, etcd compact ${rev} while it was down, restart`;
      },
      3: async () => `etcd compact ${await compact()}`,
      4: async () => {
        await api.kill("SIGTERM");
        api = await startApi();
        return `apiserver SIGTERM + restart, then etcd compact ${await compact()}`;
      },
    };
    const done: string[] = [];
    const started = performance.now();
    for (let r = 1; r <= rounds; r++) {
      // Concurrent writes (they used to share resourceVersions on etcd): relabel every pod to the
      // next Service, annotate every Service.
      await pool(
        Array.from({ length: pods }, (_, i) => i),
        16,
        async (i) => {
          await retry(async () => {
            const p = await c.core.readNamespacedPod({ name: podName(i), namespace: ns });
            p.metadata!.labels = { app: svcName((i + r) % services) };
            ack(await c.core.replaceNamespacedPod({ name: podName(i), namespace: ns, body: p }));
          });
        },
      );
      await pool(
        Array.from({ length: services }, (_, j) => j),
        16,
        async (j) => {
          await retry(async () => {
            const s = await c.core.readNamespacedService({ name: svcName(j), namespace: ns });
            s.metadata!.annotations = { round: String(r) };
            await c.core.replaceNamespacedService({ name: svcName(j), namespace: ns, body: s });
          });
        },
      );
      const fault = faults[r - 1];
      const at = performance.now();
      if (fault) done.push(`${await fault()} (${Math.round(performance.now() - at)} ms)`);
    }
    // Delete every third pod and the last two Services: informers must drop them.
    await pool(
      Array.from({ length: pods }, (_, i) => i).filter((i) => i % 3 === 0),
      8,
      (i) => retry(() => c.core.deleteNamespacedPod({ name: podName(i), namespace: ns })),
    );
    for (const j of [services - 1, services - 2]) await retry(() => c.core.deleteNamespacedService({ name: svcName(j), namespace: ns }));
    const writesDone = performance.now();

    const finalPods = (await c.core.listNamespacedPod({ namespace: ns })).items;
    const finalSvcs = (await c.core.listNamespacedService({ namespace: ns })).items;
    const want = { pods: versions(finalPods), services: versions(finalSvcs) };
    await eventually(
      async () => {
        const got = { pods: versions(podInformer.informer.list()), services: versions(svcInformer.informer.list()) };
        return JSON.stringify(got) === JSON.stringify(want) ? true : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 100, what: "the client-node informers to reach the final state" },
    );
    await eventually(
      async () => (JSON.stringify(Object.fromEntries([...resumer.state].sort())) === JSON.stringify(want.pods) ? true : undefined),
      { timeoutMs: 20_000, intervalMs: 100, what: "the resuming watcher to reach the final state" },
    );
    // The controller-manager's pod and service informers, through the EndpointSlices they drive.
    const wantEndpoints = (j: number): string[] =>
      finalPods
        .filter((p) => p.metadata!.labels!["app"] === svcName(j))
        .map((p) => `${p.status!.podIP} true`)
        .sort();
    await eventually(
      async () => {
        for (let j = 0; j < services - 2; j++) {
          const eps = (await slicesOf(c, svcName(j)))
            .filter((s) => s.addressType === "IPv4")
            .flatMap((s) => s.endpoints)
            .sort();
          if (JSON.stringify(eps) !== JSON.stringify(wantEndpoints(j))) return undefined;
        }
        return true;
      },
      // A reflector that failed through the restarts waits up to its backoff's cap (30 s, jitter 1.0:
      // up to 60 s, as client-go's reflector) before it relists; then the controller syncs.
      { timeoutMs: 90_000, intervalMs: 200, what: "the controller-manager's EndpointSlices to list the final pods" },
    );
    const converged = performance.now();

    // Every acknowledged pod write reached the resuming watcher, unless a 410 relist covered it.
    const covered = (rv: number): boolean => resumer.relists.some((l) => rv > l.before && rv <= l.at);
    const lost = [...acked].filter(([key, rv]) => !resumer.seen.has(key) && !covered(rv)).map(([key]) => key);
    const coveredCount = [...acked].filter(([key, rv]) => !resumer.seen.has(key) && covered(rv)).length;
    const distinct = new Set(acked.values()).size;
    expect(api.alive(), `apiserver died:\n${api.output().slice(-3000)}`).toBe(true);
    expect(lost).toEqual([]);
    expect(distinct, "acknowledged pod writes sharing a resourceVersion").toBe(acked.size);
    expect(
      resumer.expired.every((m) => /^too old resource version: \d+ \(\d+\)$/.test(m) && !m.endsWith("(0)")),
      resumer.expired.join("\n"),
    ).toBe(true);
    const sum = summarize(await slicesOf(c, svcName(0)));
    console.log(
      `e2e faults/informer-soak: ${acked.size} acknowledged pod writes (${distinct} distinct resourceVersions), ${rounds} rounds, faults: ${done.join("; ")}; ` +
        `resuming watcher: ${JSON.stringify(resumer.counts())}, ${resumer.seen.size} writes seen as events, ${coveredCount} covered by a 410 relist, ${lost.length} lost, 410s: ${JSON.stringify(resumer.expired)}; ` +
        `client-node pod informer ${JSON.stringify(podInformer.counts)}, service informer ${JSON.stringify(svcInformer.counts)}; ` +
        `${finalPods.length} pods and ${finalSvcs.length} Services in their final state everywhere ${Math.round(converged - writesDone)} ms after the last write ` +
        `(writes and faults took ${Math.round(writesDone - started)} ms); ${svcName(0)} slices ${JSON.stringify(sum)}`,
    );
  });
});
