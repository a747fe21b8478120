#!/usr/bin/env node
// Rule-generation benchmark on the built dist: N dual-stack Services x E endpoints per family.
// Times (per backend and family) the cold full sync (hashing chain names included), a warm full
// sync, and the partial sync after one endpoint change. Each backend/family runs in its own
// process so that one case's heap does not slow the next. Writes bench/results-proxy.json.
// With --apply-services M (root only) it also loads an M-service ruleset with iptables-restore /
// ip6tables-restore / nft inside a network namespace it creates and deletes, and times that.
// `<backend>:IPv4:hints` (iptables and nftables) measures what topology hints cost the cold full sync,
// each variant in its own fresh process, and bounds the hint evaluation directly: see hints.mjs.
// `--cases a,b` runs only those cases and keeps the other cases' rows of results-proxy.json.
//   node bench/bench-proxy.mjs [--services 10000] [--endpoints 10] [--partial-runs 21] [--apply-services 1000]
//     [--hint-rounds 5] [--hint-batches 15] [--cases iptables:IPv4:hints,nftables:IPv4:hints]
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { IptablesProxier, NftablesProxier, applyUnavailableReason, inNetns, run } from "../dist/index.js";
import { E, N, arg, newProxier, service, slice } from "./proxy-inputs.mjs";
import { measureHints, runHintShare, runHintVariant } from "./hints.mjs";

const PARTIAL_RUNS = arg("partial-runs", 21);
const APPLY_N = arg("apply-services", 0);

/** Loads an APPLY_N-service ruleset (full, then one partial) in a fresh netns and times the tool. */
async function measureApply(kind, Cls, family) {
  const tool = kind === "iptables" ? (family === "IPv4" ? "iptables-restore" : "ip6tables-restore") : "nft";
  const why = applyUnavailableReason(["ip", tool]);
  if (why !== undefined) {
    process.stderr.write(`apply timing skipped: ${why}\n`);
    return;
  }
  const ns = `sn-kp-bench-${randomBytes(4).toString("hex")}`;
  if (spawnSync("ip", ["netns", "add", ns]).status !== 0) return;
  try {
    const argv = kind === "iptables" ? [tool, "-w", "5", "--noflush", "--counters"] : ["nft", "-f", "-"];
    const p = newProxier(Cls, family);
    const svcs = services.slice(0, APPLY_N);
    const slices = svcs.map((_, i) => slice(i, family));
    for (const s of svcs) p.onServiceAdd(s);
    for (const s of slices) p.onEndpointSliceAdd(s);
    p.setInitialized(true);
    const fam = family.toLowerCase();
    for (const { label, prepare } of [
      { label: "full", prepare: () => {} },
      { label: "partial", prepare: () => p.onEndpointSliceUpdate(slices[0], slice(0, family, 1)) },
    ]) {
      prepare();
      const r = p.syncProxyRules();
      const text = r.data;
      const t0 = performance.now();
      const res = await run(inNetns(ns, argv), text);
      const ms = performance.now() - t0;
      if (res.code !== 0) throw new Error(`${tool} failed: ${res.stderr.slice(0, 500)}`);
      p.commit(r);
      record(`${kind}-${fam}-apply-${label}-${APPLY_N}-services-in-netns`, ms);
    }
  } finally {
    spawnSync("ip", ["netns", "del", ns]);
  }
}
const results = [];
const record = (name, value, metric = "duration") => results.push({ name, metric, value: Math.round(value * 100) / 100, unit: "ms" });
const time = (fn) => {
  const t0 = performance.now();
  const r = fn();
  return [performance.now() - t0, r];
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const allCases = ["iptables:IPv4", "iptables:IPv6", "nftables:IPv4", "nftables:IPv6", "iptables:IPv4:hints", "nftables:IPv4:hints"];
/** The case a result row comes from: its backend and family, and whether it is a hints row. */
const caseOf = (row) => {
  const [kind, fam] = row.name.split("-");
  return `${kind}:${fam.replace("ip", "IP")}${row.name.includes("hints") ? ":hints" : ""}`;
};
const caseIdx = process.argv.indexOf("--case");
const only = caseIdx < 0 ? undefined : process.argv[caseIdx + 1];
if (only === undefined) {
  // Parent: one child per case, then the table and the JSON file. With --cases a,b only those run
  // and the other cases' rows of the existing file are kept.
  const casesIdx = process.argv.indexOf("--cases");
  const cases = casesIdx < 0 ? allCases : process.argv[casesIdx + 1].split(",");
  const file = new URL("./results-proxy.json", import.meta.url);
  if (casesIdx >= 0 && existsSync(file))
    results.push(...JSON.parse(readFileSync(file, "utf8")).results.filter((r) => !cases.includes(caseOf(r))));
  for (const c of cases) {
    if (!allCases.includes(c)) throw new Error(`unknown case ${c}; one of ${allCases.join(", ")}`);
    const out = execFileSync(
      process.execPath,
      [...process.execArgv, "--expose-gc", new URL(import.meta.url).pathname, ...process.argv.slice(2), "--case", c],
      {
        encoding: "utf8",
        maxBuffer: 1 << 24,
      },
    );
    results.push(...JSON.parse(out));
  }
  results.sort((x, y) => allCases.indexOf(caseOf(x)) - allCases.indexOf(caseOf(y)));
  writeFileSync(file, JSON.stringify({ services: N, endpointsPerFamily: E, node: process.version, results }, null, 2) + "\n");
  const w = Math.max(...results.map((r) => r.name.length));
  const m = Math.max(...results.map((r) => r.metric.length));
  console.log(`${"name".padEnd(w)}  ${"metric".padEnd(m)}  value`);
  for (const r of results) console.log(`${r.name.padEnd(w)}  ${r.metric.padEnd(m)}  ${r.value} ${r.unit}`);
  process.exit(0);
}
const [onlyKind, onlyFamily, sub, variant] = only.split(":");
const OnlyCls = onlyKind === "iptables" ? IptablesProxier : NftablesProxier;
// The hints children (hints.mjs) print their own figures; the `:hints` case runs them.
if (sub === "hints-variant") process.stdout.write(JSON.stringify(await runHintVariant(OnlyCls, onlyFamily, variant)));
else if (sub === "hints-share") process.stdout.write(JSON.stringify(runHintShare(OnlyCls, onlyFamily)));
else if (sub === "hints") process.stdout.write(JSON.stringify(measureHints(onlyKind, onlyFamily)));
if (sub !== undefined) process.exit(0);
const services = Array.from({ length: N }, (_, i) => service(i));
for (const { kind, Cls } of [
  { kind: "iptables", Cls: IptablesProxier },
  { kind: "nftables", Cls: NftablesProxier },
]) {
  for (const family of ["IPv4", "IPv6"]) {
    if (only !== `${kind}:${family}`) continue;
    const fam = family.toLowerCase();
    const p = newProxier(Cls, family);
    const slices = services.map((_, i) => slice(i, family));
    const [ingest] = time(() => {
      for (const s of services) p.onServiceAdd(s);
      for (const s of slices) p.onEndpointSliceAdd(s);
      p.onServiceSynced();
      p.onEndpointSlicesSynced();
    });
    record(`${kind}-${fam}-ingest-events`, ingest);
    // The cold full sync in two parts: applying the tracked changes (slices -> endpoint lists,
    // what upstream's EndpointsMap.Update does inside syncProxyRules), then rendering every rule.
    const [trackers] = time(() => p.takeChanges());
    const [render, r1] = time(() => p.syncProxyRules());
    if (!r1.full) throw new Error("expected a full sync");
    p.commit(r1);
    record(`${kind}-${fam}-full-sync-cold-apply-changes`, trackers);
    record(`${kind}-${fam}-full-sync-cold-render`, render);
    record(`${kind}-${fam}-full-sync-cold`, trackers + render);
    p.markNeedFullSync();
    const [warm, r2] = time(() => p.syncProxyRules());
    p.commit(r2);
    record(`${kind}-${fam}-full-sync-warm`, warm);
    // Generation returns chunks; joining them into the one string handed to the tool is timed apart.
    const [joinMs, bytes] = time(() => r2.data.length);
    record(`${kind}-${fam}-full-sync-join-text`, joinMs);
    results.push({ name: `${kind}-${fam}-full-sync-output`, metric: "size", value: bytes, unit: "bytes" });
    const partial = [];
    for (let k = 0; k < PARTIAL_RUNS; k++) {
      const i = (k * 7919) % N;
      p.onEndpointSliceUpdate(slices[i], slice(i, family, k + 1));
      const [t, r] = time(() => p.syncProxyRules());
      if (r.full) throw new Error("expected a partial sync");
      p.commit(r);
      partial.push(t);
    }
    record(`${kind}-${fam}-partial-sync-one-endpoint-change`, median(partial), "median duration");
    if (APPLY_N > 0) await measureApply(kind, Cls, family);
  }
}

process.stdout.write(JSON.stringify(results));
