#!/usr/bin/env node
// Namespace deletion with the real processes: the apiserver (servicenet-up.js on SQLite) and the
// controller-manager (all controllers, so every Service with a selector also has an Endpoints and
// an EndpointSlice). N Services are created in one namespace and their Endpoints/EndpointSlices
// awaited; then the namespace is DELETEd and the time until it is gone (GET 404) measured, with the
// time until its Services are gone. Both include upstream's 5 s namespaceDeletionGracePeriod; the
// figure without it is reported too. Writes bench/results-namespace-deletion.json.
//   node bench/namespace-deletion.bench.mjs [--services 5000]
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CoreV1Api, DiscoveryV1Api } from "@kubernetes/client-node";
import { pool, runBench, startCluster, waitFor } from "./processes.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
const N = arg("services", 5000);
const ns = "bench-ns";
const graceMs = 5000;
const round = (x) => Math.round(x * 100) / 100;

async function main() {
  const cluster = await startCluster("ns");
  try {
    const kc = cluster.kc;
    const core = kc.makeApiClient(CoreV1Api);
    const discovery = kc.makeApiClient(DiscoveryV1Api);
    await cluster.controllerManager([], /"Caches are synced","controller":"namespace"/);

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
    await waitFor(async () => (await count(() => discovery.listNamespacedEndpointSlice({ namespace: ns }))) >= N, 500);
    await waitFor(async () => (await count(() => core.listNamespacedEndpoints({ namespace: ns }))) >= N, 500);
    const slices = await count(() => discovery.listNamespacedEndpointSlice({ namespace: ns }));
    const endpoints = await count(() => core.listNamespacedEndpoints({ namespace: ns }));
    console.log(
      `set-up: ${N} Services, ${slices} EndpointSlices, ${endpoints} Endpoints in ${round((performance.now() - setupStart) / 1000)} s`,
    );

    // Measured: DELETE, then until the Services are gone and until the namespace is gone.
    await core.deleteNamespace({ name: ns });
    const t0 = performance.now();
    let servicesGoneAt;
    const goneAt = await waitFor(async () => {
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
    await cluster.stop();
  }
}

runBench(main);
