#!/usr/bin/env node
// Namespace deletion with the real processes: the apiserver (servicenet-up.js on SQLite) and the
// controller-manager (all controllers, so every Service with a selector also has an Endpoints and
// an EndpointSlice). N Services are created in one namespace and their Endpoints/EndpointSlices
// awaited; then the namespace is DELETEd and the time until it is gone (GET 404) measured, with the
// time until its Services are gone. Both include upstream's 5 s namespaceDeletionGracePeriod; the
// figure without it is reported too. Writes bench/results-namespace-deletion.json.
//   node bench/namespace-deletion.bench.mjs [--services 5000]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CoreV1Api, DiscoveryV1Api, KubeConfig } from "@kubernetes/client-node";
import { pool, start } from "./processes.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
const N = arg("services", 5000);
const ns = "bench-ns";
const graceMs = 5000;
const round = (x) => Math.round(x * 100) / 100;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` every `ms` until it returns true; resolves with performance.now() at that moment. */
async function until(fn, ms = 100, timeoutMs = 600_000) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await fn()) return performance.now();
    await sleep(ms);
  }
  throw new Error("timed out");
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "servicenet-bench-ns-"));
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
    const discovery = kc.makeApiClient(DiscoveryV1Api);
    const cm = start(
      path.join(root, "packages/controller-manager/dist/cmd/controller-manager.js"),
      ["--kubeconfig", kubeconfig],
      /"Caches are synced","controller":"namespace"/,
    );
    procs.push(cm);
    await cm.seen;

    // Set-up (unmeasured): N Services, and the controllers' Endpoints and EndpointSlices for them.
    await core.createNamespace({ body: { metadata: { name: ns } } });
    const setupStart = performance.now();
    await pool(N, 16, (i) =>
      core.createNamespacedService({
        namespace: ns,
        body: { metadata: { name: `svc-${i}` }, spec: { selector: { app: `svc-${i}` }, ports: [{ port: 80, targetPort: 8080 }] } },
      }),
    );
    const count = async (list) => (await list()).items.length;
    await until(async () => (await count(() => discovery.listNamespacedEndpointSlice({ namespace: ns }))) >= N, 500);
    await until(async () => (await count(() => core.listNamespacedEndpoints({ namespace: ns }))) >= N, 500);
    const slices = await count(() => discovery.listNamespacedEndpointSlice({ namespace: ns }));
    const endpoints = await count(() => core.listNamespacedEndpoints({ namespace: ns }));
    console.log(
      `set-up: ${N} Services, ${slices} EndpointSlices, ${endpoints} Endpoints in ${round((performance.now() - setupStart) / 1000)} s`,
    );

    // Measured: DELETE, then until the Services are gone and until the namespace is gone.
    await core.deleteNamespace({ name: ns });
    const t0 = performance.now();
    let servicesGoneAt;
    const goneAt = await until(async () => {
      if (servicesGoneAt === undefined && (await count(() => core.listNamespacedService({ namespace: ns }))) === 0)
        servicesGoneAt = performance.now();
      return core.readNamespace({ name: ns }).then(
        () => false,
        (e) => e.code === 404,
      );
    }, 200);
    const total = goneAt - t0;
    const content = (servicesGoneAt ?? goneAt) - t0;
    console.log(`namespace with ${N} Services: content gone after ${round(content)} ms, namespace gone after ${round(total)} ms`);

    const label = `namespace deletion (sqlite, ${N} Services + ${slices} EndpointSlices + ${endpoints} Endpoints)`;
    const results = [
      { name: label, metric: "time to namespace gone", value: round(total), unit: "ms" },
      { name: label, metric: "time to namespace gone minus 5 s grace", value: round(total - graceMs), unit: "ms" },
      { name: label, metric: "time to Services gone", value: round(content), unit: "ms" },
    ];
    const env = {
      node: process.version,
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? "",
      loadavg1m: loadavg()[0],
      date: new Date().toISOString(),
    };
    writeFileSync(path.join(here, "results-namespace-deletion.json"), JSON.stringify({ env, results }, null, 2) + "\n");
  } finally {
    for (const p of procs.reverse()) {
      if (p.child.exitCode === null) {
        const exited = new Promise((r) => p.child.once("exit", r));
        p.child.kill("SIGTERM");
        await exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
