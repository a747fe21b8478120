#!/usr/bin/env node
// ReplicaSet controller throughput with the real processes: the apiserver (servicenet-up.js on
// SQLite) and the controller-manager (dist/cmd/controller-manager.js, --controllers replicaset).
// First the apiserver's own write rate as a yardstick (N Services created, 16 in flight, each
// allocating a ClusterIP); then one ReplicaSet of R replicas: the time from its create until its
// status counts R Pods (every Pod created in slow-start batches of at most 500 per sync and seen
// by the controller's informer), and the time from a scale to 0 until its status counts none.
// Writes bench/results-replicaset.json.
//   node bench/replicaset.bench.mjs [--replicas 1000] [--services 500]
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AppsV1Api, CoreV1Api, PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import { pool, runBench, startCluster, waitFor } from "./processes.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? def : Number(process.argv[i + 1]);
};
const R = arg("--replicas", 1000);
const S = arg("--services", 500);

async function main() {
  const cluster = await startCluster("rs");
  try {
    const kc = cluster.kc;
    const core = kc.makeApiClient(CoreV1Api);
    const apps = kc.makeApiClient(AppsV1Api);
    await cluster.controllerManager(["--controllers", "replicaset"], /"msg":"Caches are synced","controller":"replicaset"/);

    await core.createNamespace({ body: { metadata: { name: "svc" } } });
    const s0 = performance.now();
    await pool(S, 16, (k) =>
      core.createNamespacedService({ namespace: "svc", body: { metadata: { name: `s-${k}` }, spec: { ports: [{ port: 80 }] } } }),
    );
    const servicesPerSecond = Math.round((S * 1000) / (performance.now() - s0));
    console.log(`${S} Services created at ${servicesPerSecond}/s`);

    await core.createNamespace({ body: { metadata: { name: "rs" } } });
    const rsStatus = async () => (await apps.readNamespacedReplicaSetStatus({ namespace: "rs", name: "web" })).status;
    const t0 = performance.now();
    await apps.createNamespacedReplicaSet({
      namespace: "rs",
      body: {
        metadata: { name: "web" },
        spec: {
          replicas: R,
          selector: { matchLabels: { app: "web" } },
          template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
        },
      },
    });
    const created = await waitFor(async () => (await rsStatus())?.replicas === R);
    const pods = (await core.listNamespacedPod({ namespace: "rs" })).items.length;
    const createMs = Math.round(created - t0);
    console.log(
      `ReplicaSet of ${R}: ${pods} Pods, status.replicas ${R} after ${createMs} ms (${Math.round((R * 1000) / createMs)} Pods/s)`,
    );

    const t1 = performance.now();
    await apps.patchNamespacedReplicaSetScale(
      { namespace: "rs", name: "web", body: { spec: { replicas: 0 } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    const deleted = await waitFor(async () => ((await rsStatus())?.replicas ?? 0) === 0);
    const deleteMs = Math.round(deleted - t1);
    console.log(`scaled to 0: status.replicas 0 after ${deleteMs} ms (${Math.round((R * 1000) / deleteMs)} Pods/s)`);

    const name = `ReplicaSet of ${R} replicas (sqlite, real processes)`;
    const out = {
      date: new Date().toISOString(),
      cpus: cpus().length,
      loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
      results: [
        { name: `${S} Services, 16 in flight (sqlite, same run)`, metric: "Services created/s", value: servicesPerSecond, unit: "1/s" },
        { name, metric: `create to status.replicas ${R}`, value: createMs, unit: "ms" },
        { name, metric: "Pods created/s", value: Math.round((R * 1000) / createMs), unit: "1/s" },
        { name, metric: "scale to 0 to status.replicas 0", value: deleteMs, unit: "ms" },
      ],
    };
    writeFileSync(path.join(here, "results-replicaset.json"), JSON.stringify(out, null, 2) + "\n");
  } finally {
    await cluster.stop();
  }
}

runBench(main);
