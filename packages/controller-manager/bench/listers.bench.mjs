#!/usr/bin/env node
// The EndpointSlice controller among --namespaces namespaces, each with a Service `web` (selector
// app=web), --pods Pods and the Service's slices, on the built dist. Times (median of --runs) the
// steady-state syncService of one Service (nothing to write) and the fan-out of one Pod update
// (the Services that select it, enqueued). Both read through listers of one namespace; the old
// whole-cache scans cost time proportional to every cached Pod and Service.
// Writes bench/results-listers.json.
//   node bench/listers.bench.mjs [--namespaces 1000] [--pods 10] [--runs 51]
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { EndpointSliceController } from "../dist/index.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
const NS = arg("namespaces", 1000);
const PODS = arg("pods", 10);
const RUNS = arg("runs", 51);

const service = (ns) => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "web", namespace: ns, uid: `uid-${ns}`, resourceVersion: "1" },
  spec: {
    type: "ClusterIP",
    clusterIP: "10.96.0.10",
    clusterIPs: ["10.96.0.10"],
    ipFamilies: ["IPv4"],
    ipFamilyPolicy: "SingleStack",
    selector: { app: "web" },
    ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }],
  },
});
const pod = (ns, i, rv = "1") => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: `p${i}`, namespace: ns, uid: `uid-${ns}-${i}`, resourceVersion: rv, labels: { app: "web" } },
  spec: { containers: [{ name: "c", ports: [{ name: "http", containerPort: 8080, protocol: "TCP" }] }] },
  status: {
    phase: "Running",
    podIP: `10.${(i >> 8) & 255}.${i & 255}.1`,
    podIPs: [{ ip: `10.${(i >> 8) & 255}.${i & 255}.1` }],
    conditions: [{ type: "Ready", status: "True", lastTransitionTime: "2026-01-01T00:00:30Z" }],
  },
});

const namespaces = Array.from({ length: NS }, (_, i) => `ns-${i}`);
const services = new MemoryInformer(namespaces.map(service));
const pods = new MemoryInformer(namespaces.flatMap((ns) => Array.from({ length: PODS }, (_, i) => pod(ns, i))));
const slices = new MemoryInformer();
let n = 0;
const client = {
  create: async (ns, s) => {
    const created = { ...s, metadata: { ...s.metadata, name: `web-${++n}`, namespace: ns, resourceVersion: String(n) } };
    slices.set(created);
    return created;
  },
  update: async (_ns, s) => s,
  delete: async () => undefined,
};
const c = new EndpointSliceController({ services, pods, slices, client });
// Every Service's slices exist, as in a cluster that has converged.
for (const ns of namespaces) await c.syncService(`${ns}/web`);
if (slices.list().length !== NS) throw new Error(`expected ${NS} slices, got ${slices.list().length}`);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function measure(fn) {
  await fn(0); // warm-up
  const times = [];
  for (let k = 1; k <= RUNS; k++) {
    const t0 = performance.now();
    await fn(k);
    times.push(performance.now() - t0);
  }
  return Math.round(median(times) * 1000) / 1000;
}

const target = namespaces[Math.floor(NS / 2)];
const results = [
  {
    name: `endpointslice-sync-one-service-of-${NS}-namespaces-${PODS}-pods-each`,
    metric: "median duration",
    value: await measure(() => c.syncService(`${target}/web`)),
    unit: "ms",
  },
  {
    name: `endpointslice-pod-update-fan-out-${NS}-namespaces`,
    metric: "median duration",
    value: await measure((k) => {
      pods.set(pod(target, 0, String(100 + k)));
      if (c.queue.len() === 0) throw new Error("the pod update enqueued nothing");
    }),
    unit: "ms",
  },
];
c.queue.shutDown();
const env = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  loadavg: loadavg().map((l) => Math.round(l * 100) / 100),
};
writeFileSync(new URL("./results-listers.json", import.meta.url), JSON.stringify({ env, results }, null, 2) + "\n");
for (const r of results) console.log(`${r.name}  ${r.metric}  ${r.value} ${r.unit}`);
