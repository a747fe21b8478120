#!/usr/bin/env node
// Topology hint computation on the built dist: one Service with --endpoints ready endpoints spread
// over 3 zones in slices of 100, all to be created. Times (median of --runs, fresh slices each run)
// the topology cache's CPU-proportional allocation (topology-mode Auto; Nodes with 4, 3 and 3 CPUs,
// so hints move between zones) and trafficDistribution PreferClose's same-zone hints.
// Writes bench/results-hints.json.
//   node bench/hints.bench.mjs [--endpoints 1000] [--runs 21]
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { reconcileHints, TopologyCache } from "../dist/index.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
const E = arg("endpoints", 1000);
const RUNS = arg("runs", 21);
const zones = ["zone-a", "zone-b", "zone-c"];

/** Fresh slices (the computation changes them in place). */
function slices() {
  const out = [];
  for (let i = 0; i < E; i += 100) {
    const endpoints = [];
    for (let j = i; j < Math.min(E, i + 100); j++) {
      endpoints.push({
        addresses: [`10.${j >> 16}.${(j >> 8) & 255}.${j & 255}`],
        zone: zones[j % 3],
        nodeName: `node-${j % 30}`,
        conditions: { ready: true },
      });
    }
    out.push({ metadata: {}, addressType: "IPv4", endpoints });
  }
  return out;
}

const nodes = zones.map((zone, i) => ({
  metadata: { name: `node-${i}`, labels: { "topology.kubernetes.io/zone": zone } },
  spec: {},
  status: { allocatable: { cpu: i === 0 ? "4" : "3" }, conditions: [{ type: "Ready", status: "True" }] },
}));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function measure(fn) {
  fn(slices()); // warm-up
  const times = [];
  for (let k = 0; k < RUNS; k++) {
    const input = slices();
    const t0 = performance.now();
    fn(input);
    times.push(performance.now() - t0);
  }
  return Math.round(median(times) * 1000) / 1000;
}

const results = [
  {
    name: `topology-cache-add-hints-${E}-endpoints-3-zones`,
    metric: "median duration",
    value: measure((toCreate) => {
      const cache = new TopologyCache();
      cache.setNodes(nodes);
      const r = cache.addHints({ serviceKey: "bench/svc", addressType: "IPv4", toCreate, toUpdate: [], unchanged: [] });
      if (r.events[0]?.reason !== "TopologyAwareHintsEnabled") throw new Error(`hints not enabled: ${JSON.stringify(r.events)}`);
    }),
    unit: "ms",
  },
  {
    name: `prefer-close-hints-${E}-endpoints-3-zones`,
    metric: "median duration",
    value: measure((toCreate) => reconcileHints("PreferClose", toCreate, [], [])),
    unit: "ms",
  },
];
const env = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  loadavg: loadavg().map((l) => Math.round(l * 100) / 100),
};
writeFileSync(new URL("./results-hints.json", import.meta.url), JSON.stringify({ env, results }, null, 2) + "\n");
for (const r of results) console.log(`${r.name}  ${r.metric}  ${r.value} ${r.unit}`);
