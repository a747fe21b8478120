#!/usr/bin/env node
// Garbage collector throughput with the real processes: the apiserver (servicenet-up.js on SQLite)
// and the controller-manager (dist/cmd/controller-manager.js, --controllers garbagecollector).
// One Service owns N pods; the figures are, for a background DELETE of the Service, the time until
// the last pod is gone (the collector's GETs of the owner, absent-owner cache, one DELETE per pod),
// and for a foreground DELETE of a second owner with N blocking pods, the time until the owner is
// gone (every pod deleted first, then the foregroundDeletion finalizer removed). Writes
// bench/results-gc-cascade.json.
//   node bench/gc-cascade.bench.mjs [--pods 1000]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { pool, start } from "./processes.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const i = process.argv.indexOf("--pods");
const N = i < 0 ? 1000 : Number(process.argv[i + 1]);

async function waitFor(probe) {
  for (;;) {
    if (await probe()) return performance.now();
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "servicenet-bench-gc-"));
  const procs = [];
  try {
    const api = start(
      path.join(root, "packages/apiserver/dist/cmd/servicenet-up.js"),
      ["--port", "0", "--data-dir", path.join(dir, "state")],
      /servicenet ready/,
    );
    procs.push(api);
    await api.seen;
    const kubeconfig = path.join(dir, "state", "kubeconfig");
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const cm = start(
      path.join(root, "packages/controller-manager/dist/cmd/controller-manager.js"),
      ["--kubeconfig", kubeconfig, "--controllers", "garbagecollector"],
      /"msg":"Caches are synced","controller":"garbagecollector"/,
    );
    procs.push(cm);
    await cm.seen;
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
      const podsGone = await waitFor(async () => (await core.listNamespacedPod({ namespace: ns, limit: 1 })).items.length === 0);
      const ownerGone = await waitFor(() =>
        core.readNamespacedService({ namespace: ns, name: "owner" }).then(
          () => false,
          () => true,
        ),
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
    for (const p of procs.reverse()) p.child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
