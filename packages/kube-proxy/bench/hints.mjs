// The cost of topology hints in the proxier's cold full sync, measured two ways that do not depend
// on each other (bench-proxy.mjs runs them for `--case <backend>:IPv4:hints`):
//  1. isolated: each variant's cold full sync of all N Services in its own fresh process (same
//     inputs, same heap start), variants alternated with rotation over --hint-rounds rounds, timed as
//     wall clock and as the process's CPU time; a control variant (no hints again) shows what ratio
//     the machine alone produces, i.e. the resolution of the hinted/plain ratios beside it;
//  2. direct bound: the hint evaluation itself (categorizeEndpoints, pkg/proxy/topology.go
//     CategorizeEndpoints, over the same 10,000 ports; plus reading the hints out of the slices)
//     in a tight loop, as a share of the plain full sync: the extra work hints can cost at most.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { categorizeEndpoints, endpointsFromSlices, labelTopologyZone } from "../dist/index.js";
import { N, arg, hintedSlice, newProxier, service, slice } from "./proxy-inputs.mjs";

const ROUNDS = arg("hint-rounds", 5);
const BATCHES = arg("hint-batches", 15);

/** Each runs alone in a fresh process; the control is the plain variant again. */
const variants = [
  { name: "no-hints", hinted: false, zone: "zone-a" },
  { name: "no-hints-control", hinted: false, zone: "zone-a" },
  // Hints evaluated, every endpoint kept: the pure cost of hints, the same ruleset as no-hints.
  { name: "zone-hints-node-without-zone", hinted: true, zone: "" },
  // A third of the endpoints kept: a smaller ruleset.
  { name: "zone-hints-node-in-zone-a", hinted: true, zone: "zone-a" },
];
const topologies = { "node-without-zone": "", "node-in-zone-a": "zone-a" };

/** A proxier for node-0 in `zone` holding the first `n` Services and their (hinted) slices. */
function loadedProxier(Cls, family, hinted, zone, n) {
  const p = newProxier(Cls, family);
  p.onNodeAdd({ metadata: { name: "node-0", labels: zone === "" ? {} : { [labelTopologyZone]: zone } }, spec: {} });
  for (let i = 0; i < n; i++) p.onServiceAdd(service(i));
  for (let i = 0; i < n; i++) p.onEndpointSliceAdd(hinted ? hintedSlice(i, family) : slice(i, family));
  p.setInitialized(true);
  return p;
}

/** Child: one variant's cold full sync of N Services, after a warm-up on a tenth of them (JIT out of the figure). */
export async function runHintVariant(Cls, family, name) {
  const v = variants.find((x) => x.name === name);
  if (v === undefined) throw new Error(`unknown hints variant ${name}`);
  loadedProxier(Cls, family, v.hinted, v.zone, Math.ceil(N / 10)).syncProxyRules();
  const p = loadedProxier(Cls, family, v.hinted, v.zone, N);
  // A settled heap: the warm-up's garbage and the promotion of the freshly built inputs (the hinted
  // ones hold three more objects per endpoint) are the bench's, not the sync's.
  globalThis.gc?.();
  const heapMB = process.memoryUsage().heapUsed / 2 ** 20;
  // Collector pauses during the sync: the hinted inputs make a bigger live heap for them to mark.
  const gcPauses = [];
  const observer = new PerformanceObserver((list) => gcPauses.push(...list.getEntries()));
  observer.observe({ entryTypes: ["gc"] });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = p.syncProxyRules();
  const t1 = performance.now();
  const cpu = process.cpuUsage(c0);
  if (!r.full) throw new Error("expected a full sync");
  await new Promise((resolve) => setTimeout(resolve, 100)); // the observer is told on a later turn
  observer.disconnect();
  const gcMs = gcPauses.filter((e) => e.startTime >= t0 && e.startTime < t1).reduce((ms, e) => ms + e.duration, 0);
  const md5 = createHash("md5").update(r.data).digest("hex");
  return { wallMs: t1 - t0, cpuMs: (cpu.user + cpu.system) / 1000, gcMs, heapMB, md5 };
}

/** CPU milliseconds per call of `fn`, the median of BATCHES batches of `reps` calls, the cases' batches interleaved. */
function cpuPerCall(cases, reps) {
  const per = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let b = 0; b < BATCHES; b++)
    for (const [k, fn] of Object.entries(cases)) {
      const c0 = process.cpuUsage();
      for (let r = 0; r < reps; r++) fn();
      const c = process.cpuUsage(c0);
      per[k].push((c.user + c.system) / 1000 / reps);
    }
  return Object.fromEntries(Object.entries(per).map(([k, xs]) => [k, median(xs)]));
}

/**
 * Child: the hint evaluation over all N Service ports, per full sync: categorizeEndpoints with the
 * hinted endpoint lists on both nodes and with the plain ones (work every sync does, hints or not),
 * and the slices -> endpoints conversion of hinted minus plain slices (reading the hints).
 */
export function runHintShare(Cls, family) {
  const ports = (hinted) => {
    const p = loadedProxier(Cls, family, hinted, "", N);
    p.takeChanges();
    return [...p.svcPortMap].map(([key, svc]) => [svc, p.endpointsMap.get(key) ?? []]);
  };
  const hinted = ports(true);
  const plain = ports(false);
  const topo = (zone) => Object.freeze({ nodeName: "node-0", zone, preferSameTrafficDistribution: false });
  const categorizeAll = (list, t) => () => {
    let kept = 0;
    for (const [svc, eps] of list) kept += categorizeEndpoints(eps, svc, t).allReachableEndpoints.length;
    return kept;
  };
  const cases = { "no-hints": categorizeAll(plain, topo("zone-a")) };
  for (const [name, zone] of Object.entries(topologies)) cases[`zone-hints-${name}`] = categorizeAll(hinted, topo(zone));
  // The filter really runs: every endpoint without a zone label, a third (rounded up) in zone-a.
  const total = hinted.reduce((n, [, eps]) => n + eps.length, 0);
  if (cases["zone-hints-node-without-zone"]() !== total || cases["zone-hints-node-in-zone-a"]() >= total)
    throw new Error("hints were not applied as expected");
  const categorize = cpuPerCall(cases, 20);
  const hintedSlices = Array.from({ length: N }, (_, i) => hintedSlice(i, family));
  const plainSlices = Array.from({ length: N }, (_, i) => slice(i, family));
  const convert = (slices) => () => {
    for (const s of slices) endpointsFromSlices([s], "node-0");
  };
  const reading = cpuPerCall({ hinted: convert(hintedSlices), plain: convert(plainSlices) }, 3);
  return { categorize, readingHintsMs: reading.hinted - reading.plain };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const min = (xs) => Math.min(...xs);
const round = (x, digits) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Runs `--case <kind>:<family>:<sub>` of this script in a fresh node process and returns its JSON. */
function child(kind, family, sub) {
  const argv = process.argv.slice(2);
  const i = argv.indexOf("--case");
  if (i >= 0) argv.splice(i, 2);
  const script = new URL("./bench-proxy.mjs", import.meta.url).pathname;
  // One thread of garbage collection: the process's CPU time is then the sync's own, and a child
  // takes one of the shared cores, not more.
  const flags = ["--expose-gc", "--single-threaded-gc"];
  const out = execFileSync(process.execPath, [...flags, script, ...argv, "--case", `${kind}:${family}:${sub}`], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out);
}

/**
 * Orchestrates both measurements of one backend and family in child processes and returns the
 * result rows: per variant the median and min of CPU time and wall clock, each variant's ratios to
 * no-hints (the control's is the resolution), and the hint evaluation's share of the plain sync.
 */
export function measureHints(kind, family) {
  const samples = new Map(variants.map((v) => [v.name, []]));
  // Round k starts with variant k: no variant always runs first, or right after the same one.
  for (let k = 0; k < ROUNDS; k++)
    for (let j = 0; j < variants.length; j++) {
      const v = variants[(j + k) % variants.length];
      samples.get(v.name).push(child(kind, family, `hints-variant:${v.name}`));
    }
  checkOutputs(samples);
  const prefix = `${kind}-${family.toLowerCase()}-hints`;
  const rows = [{ name: `${prefix}-isolated-rounds`, metric: "count", value: ROUNDS, unit: "processes per variant" }];
  const stats = new Map();
  for (const [name, xs] of samples) {
    const s = {
      cpuMedian: median(xs.map((x) => x.cpuMs)),
      cpuMin: min(xs.map((x) => x.cpuMs)),
      wallMedian: median(xs.map((x) => x.wallMs)),
      wallMin: min(xs.map((x) => x.wallMs)),
      gcMedian: median(xs.map((x) => x.gcMs)),
      heapMedian: median(xs.map((x) => x.heapMB)),
    };
    stats.set(name, s);
    rows.push(
      { name: `${prefix}-isolated-${name}`, metric: "median cpu time", value: round(s.cpuMedian, 1), unit: "ms" },
      { name: `${prefix}-isolated-${name}`, metric: "min cpu time", value: round(s.cpuMin, 1), unit: "ms" },
      { name: `${prefix}-isolated-${name}`, metric: "median duration", value: round(s.wallMedian, 1), unit: "ms" },
      { name: `${prefix}-isolated-${name}`, metric: "min duration", value: round(s.wallMin, 1), unit: "ms" },
      { name: `${prefix}-isolated-${name}`, metric: "median gc pauses", value: round(s.gcMedian, 1), unit: "ms" },
      { name: `${prefix}-isolated-${name}`, metric: "heap before sync", value: round(s.heapMedian, 1), unit: "MiB" },
    );
  }
  const base = stats.get("no-hints");
  for (const [name, s] of stats) {
    if (name === "no-hints") continue;
    for (const [key, metric] of [
      ["cpuMedian", "median cpu time ratio"],
      ["cpuMin", "min cpu time ratio"],
      ["wallMedian", "median duration ratio"],
      ["wallMin", "min duration ratio"],
    ])
      rows.push({ name: `${prefix}-isolated-${name}-vs-no-hints`, metric, value: round(s[key] / base[key], 3), unit: "x" });
  }
  rows.push(...shareRows(prefix, child(kind, family, "hints-share"), base.cpuMedian));
  return rows;
}

/** The plain variants and the hinted one on a node without a zone write the same ruleset; zone-a's is another. */
function checkOutputs(samples) {
  const md5s = (name) => new Set(samples.get(name).map((x) => x.md5));
  const same = new Set([...md5s("no-hints"), ...md5s("no-hints-control"), ...md5s("zone-hints-node-without-zone")]);
  if (same.size !== 1) throw new Error("hints on a node without a zone changed the ruleset");
  if (md5s("zone-hints-node-in-zone-a").has([...same][0])) throw new Error("hints in zone-a did not change the ruleset");
}

/** The hint evaluation per full sync (CPU ms) and as a share of the plain variant's median CPU time. */
function shareRows(prefix, share, syncCpuMs) {
  const pct = (ms) => round((ms / syncCpuMs) * 100, 2);
  const rows = [];
  for (const [name, ms] of Object.entries(share.categorize))
    rows.push(
      { name: `${prefix}-categorize-endpoints-${name}`, metric: "cpu time per sync", value: round(ms, 2), unit: "ms" },
      { name: `${prefix}-categorize-endpoints-${name}`, metric: "share of sync", value: pct(ms), unit: "%" },
    );
  rows.push(
    { name: `${prefix}-read-hints-from-slices`, metric: "cpu time per sync", value: round(share.readingHintsMs, 2), unit: "ms" },
    { name: `${prefix}-read-hints-from-slices`, metric: "share of sync", value: pct(share.readingHintsMs), unit: "%" },
  );
  // Upper bound of what hints add: the whole filtering with hints (the plain sync filters too) plus reading them.
  const worst = Math.max(
    ...Object.entries(share.categorize)
      .filter(([k]) => k !== "no-hints")
      .map(([, ms]) => ms),
  );
  rows.push({
    name: `${prefix}-evaluation-bound`,
    metric: "share of sync",
    value: pct(worst + Math.max(0, share.readingHintsMs)),
    unit: "%",
  });
  return rows;
}
