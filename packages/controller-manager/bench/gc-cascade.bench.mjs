#!/usr/bin/env node
// Garbage collector throughput with the real processes: the apiserver (servicenet-up.js on SQLite)
// and the controller-manager (dist/cmd/controller-manager.js, --controllers garbagecollector).
// One Service owns N pods; the figures are, for a background DELETE of the Service, the time until
// the last pod is gone (the collector's GETs of the owner, absent-owner cache, one DELETE per pod),
// and for a foreground DELETE of a second owner with N blocking pods, the time until the owner is
// gone (every pod deleted first, then the foregroundDeletion finalizer removed). Writes
// bench/results-gc-cascade.json.
//   node bench/gc-cascade.bench.mjs [--pods 1000]
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CoreV1Api } from "@kubernetes/client-node";
import { pool, runBench, startCluster, waitFor } from "./processes.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const i = process.argv.indexOf("--pods");
const N = i < 0 ? 1000 : Number(process.argv[i + 1]);

async function main() {
  const cluster = await startCluster("gc");
  try {
    const kc = cluster.kc;
    const core = kc.makeApiClient(CoreV1Api);
    await cluster.controllerManager(["--controllers", "garbagecollector"], /"msg":"Caches are synced","controller":"garbagecollector"/);
    const results = {};
    for (const [mode, policy, block] of [
      ["background", "Background", false],
      ["foreground", "Foreground", true],
    ]) {
      const ns = `gc-${mode}`;
      await core.createNamespace({ body: { metadata: { name: ns } } });
      const svc = await core.createNamespacedService({
        namespace: ns,
        body: { metadata: { name: "owner" }, spec: { ports: [{ port: 80 }] } },
      });
      const ref = {
        apiVersion: "v1",
        kind: "Service",
        name: "owner",
        uid: svc.metadata.uid,
        ...(block ? { blockOwnerDeletion: true } : {}),
      };
      await pool(N, 16, (k) =>
        core.createNamespacedPod({
          namespace: ns,
          body: { metadata: { name: `p-${k}`, ownerReferences: [ref] }, spec: { containers: [{ name: "c", image: "x" }] } },
        }),
      );
      const t0 = performance.now();
      await core.deleteNamespacedService({ namespace: ns, name: "owner", propagationPolicy: policy });
      const podsGone = await waitFor(async () => (await core.listNamespacedPod({ namespace: ns, limit: 1 })).items.length === 0, 50);
      const ownerGone = await waitFor(
        () =>
          core.readNamespacedService({ namespace: ns, name: "owner" }).then(
            () => false,
            () => true,
          ),
        50,
      );
      results[mode] = {
        pods: N,
        podsGoneMs: Math.round(podsGone - t0),
        ownerGoneMs: Math.round(ownerGone - t0),
        podsPerSecond: Math.round((N * 1000) / (podsGone - t0)),
      };
      console.log(
        `${mode}: ${N} pods collected in ${results[mode].podsGoneMs} ms (${results[mode].podsPerSecond}/s), owner gone after ${results[mode].ownerGoneMs} ms`,
      );
    }
    const rows = Object.entries(results).flatMap(([mode, r]) => {
      const name = `GC ${mode} deletion of one Service owning ${N} pods (sqlite, real processes)`;
      return [
        { name, metric: "pods collected/s", value: r.podsPerSecond, unit: "1/s" },
        { name, metric: "owner DELETE to last pod gone", value: r.podsGoneMs, unit: "ms" },
        { name, metric: "owner DELETE to owner gone", value: r.ownerGoneMs, unit: "ms" },
      ];
    });
    const out = {
      date: new Date().toISOString(),
      cpus: cpus().length,
      loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
      results: rows,
    };
    writeFileSync(path.join(here, "results-gc-cascade.json"), JSON.stringify(out, null, 2) + "\n");
  } finally {
    await cluster.stop();
  }
}

runBench(main);
