#!/usr/bin/env node
// Packet-tracer benchmark on the built dist: the rules of a 10,000-Service ruleset (N ClusterIP
// Services x E endpoints, one family) computed by each backend's proxier and loaded into the
// tracer, then one new connection to one Service traced with every endpoint branch followed.
// Times: computing + loading the ruleset (once per node: the proxier's sync, the restore/transaction
// replayed into the tracer's state, long iptables chains indexed by destination), the first trace
// (rules are parsed when first evaluated; the Service is the last one written), and the median of
// R traces of other Services after it.
// Writes bench/results-trace.json (rows and the <= 50 ms target).
//   node bench/bench-trace.mjs [--services 10000] [--endpoints 10] [--runs 21]
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { computeNodeRules } from "../dist/index.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
const N = arg("services", 10000);
const E = arg("endpoints", 10);
const RUNS = arg("runs", 21);
const GOAL_MS = 50;

const ip = (i) => `10.96.${1 + (i >> 8)}.${i & 255}`;
const services = Array.from({ length: N }, (_, i) => ({
  metadata: { namespace: "scale", name: `svc-${i}` },
  spec: {
    type: "ClusterIP",
    clusterIP: ip(i),
    clusterIPs: [ip(i)],
    ipFamilies: ["IPv4"],
    ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }],
  },
}));
const slices = Array.from({ length: N }, (_, i) => ({
  metadata: { namespace: "scale", name: `svc-${i}-v4`, labels: { "kubernetes.io/service-name": `svc-${i}` } },
  addressType: "IPv4",
  endpoints: Array.from({ length: E }, (_, j) => ({
    addresses: [`10.${100 + j}.${1 + (i >> 8)}.${i & 255}`],
    nodeName: `node-${j}`,
    conditions: { ready: true, serving: true, terminating: false },
  })),
  ports: [{ name: "http", port: 8080, protocol: "TCP" }],
}));

const packet = (i) => ({ source: "10.244.0.5", destination: ip(i), protocol: "tcp", port: 80, origin: "prerouting" });
const round = (x) => Math.round(x * 100) / 100;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const results = [];
const targets = [];
for (const mode of ["iptables", "nftables"]) {
  let t0 = performance.now();
  const rules = computeNodeRules({
    mode,
    family: "IPv4",
    nodeName: "node-0",
    clusterCIDR: "10.0.0.0/8",
    nodeIPs: ["192.168.0.2"],
    serviceCIDRs: ["10.96.0.0/12"],
    services,
    slices,
  });
  const loadMs = performance.now() - t0;
  t0 = performance.now();
  const first = rules.trace(packet(N - 1), ["192.168.0.2"]);
  const firstMs = performance.now() - t0;
  if (first.outcomes.length !== E) throw new Error(`${mode}: expected ${E} outcomes, got ${first.outcomes.length}`);
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    const i = Math.floor((r * N) / RUNS);
    t0 = performance.now();
    const res = rules.trace(packet(i), ["192.168.0.2"]);
    times.push(performance.now() - t0);
    if (res.outcomes.length !== E) throw new Error(`${mode}: svc-${i}: ${res.outcomes.length} outcomes`);
  }
  const med = median(times);
  console.log(
    `trace ${mode}: compute+load ${round(loadMs)} ms, first trace ${round(firstMs)} ms, median trace ${round(med)} ms (${N} services x ${E} endpoints)`,
  );
  results.push(
    { name: `trace-${mode}-ipv4-compute-and-load`, metric: "duration", value: round(loadMs), unit: "ms" },
    { name: `trace-${mode}-ipv4-first-trace`, metric: "duration", value: round(firstMs), unit: "ms" },
    { name: `trace-${mode}-ipv4-trace-median`, metric: "duration", value: round(med), unit: "ms" },
  );
  const worst = Math.max(firstMs, ...times);
  targets.push({
    target: `trace of one Service on a ${N}-Service ruleset (${mode}, slowest of ${RUNS + 1}) <= ${GOAL_MS} ms`,
    measured: `${round(worst)} ms`,
    met: worst <= GOAL_MS,
  });
}
writeFileSync(
  new URL("./results-trace.json", import.meta.url),
  JSON.stringify(
    { services: N, endpointsPerFamily: E, node: process.version, env: { date: new Date().toISOString() }, results, targets },
    null,
    2,
  ) + "\n",
);
