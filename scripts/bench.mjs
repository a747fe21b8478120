#!/usr/bin/env node
// `npm run bench`: runs every package's `bench` script (those that have one), then gathers the JSON
// results they write to packages/<pkg>/bench/results*.json into bench/results.json and a short
// Markdown table, bench/results.md, with the machine and the date.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const packages = fs.readdirSync(path.join(root, "packages")).filter((p) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "packages", p, "package.json"), "utf8"));
  return Boolean(manifest.scripts?.bench);
});

// `--gather`: only collect the results the package benchmarks wrote last (after running some by hand).
const gatherOnly = process.argv.includes("--gather");
let failed = false;
for (const p of gatherOnly ? [] : packages) {
  console.log(`bench: ${p}`);
  const r = spawnSync("npm", ["run", "bench"], { cwd: path.join(root, "packages", p), stdio: "inherit" });
  if (r.status !== 0) failed = true;
}

const results = [];
// The performance issue's then-and-now table and targets, from the benches that write them.
const issueTables = [];
const targets = [];
for (const p of packages) {
  const dir = path.join(root, "packages", p, "bench");
  if (!fs.existsSync(dir)) continue;
  for (const f of fs.readdirSync(dir).filter((f) => /^results.*\.json$/.test(f))) {
    const doc = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
    for (const row of doc.results ?? []) results.push({ package: p, ...row });
    if (doc.issueTable) issueTables.push({ ...doc.issueTable, date: doc.env?.date });
    for (const t of doc.targets ?? []) targets.push({ ...t, date: doc.env?.date });
  }
}

const machine = {
  cpus: os.cpus().length,
  model: os.cpus()[0]?.model ?? "unknown",
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
};
const out = { date: new Date().toISOString(), machine, results, issueTables, targets };
fs.mkdirSync(path.join(root, "bench"), { recursive: true });
fs.writeFileSync(path.join(root, "bench", "results.json"), JSON.stringify(out, null, 2) + "\n");

/**
 * A result row is either `{name, metric, value, unit}` or a flat record whose string/boolean fields
 * name the case and whose numeric fields are its figures (e.g. `{backend, concurrency, p99ms}`).
 */
function tableRows(r) {
  if (r.metric !== undefined) return [`| ${r.package} | ${r.name} | ${r.metric} | ${r.value} | ${r.unit ?? ""} |`];
  const { package: pkg, ...rest } = r;
  const label = Object.entries(rest)
    .filter(([k, v]) => typeof v !== "number" || k === "concurrency")
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  return Object.entries(rest)
    .filter(([k, v]) => typeof v === "number" && k !== "concurrency")
    .map(([k, v]) => `| ${pkg} | ${label} | ${k} | ${v} | |`);
}

/** The issue's table: each server's figures when the issue was filed and in this run, side by side. */
function issueSection() {
  const lines = [];
  for (const t of issueTables) {
    lines.push(
      `## Performance issue: Service creates then (${t.baseline}, when filed) and now (${t.date ?? "this run"})`,
      "",
      "wrk -t1 -c16, Service creates over HTTPS + token, SQLite, one worker; ratio to the floor server of the same run. These are SingleStack Services in a single-stack 10.0.0.0/14, as the bench measured them when the issue was filed (its text says RequireDualStack), so that then and now compare; the RequireDualStack rows, against a floor writing the same three rows, are among the targets below and in the figures.",
      "",
      "| server | creates/s | p99 | CPU per create | ratio to floor |",
      "| --- | ---: | ---: | ---: | ---: |",
    );
    const pair = (a, b, unit = "") => `${a}${unit} → ${b}${unit}`;
    for (const r of t.rows)
      lines.push(
        `| ${r.server} | ${pair(r.then.createsPerSecond, r.now.createsPerSecond)} | ${pair(r.then.p99ms, r.now.p99ms, " ms")} | ${pair(r.then.cpuUsPerCreate, r.now.cpuUsPerCreate, " µs")} | ${pair(r.then.ratio, r.now.ratio)} |`,
      );
    lines.push("");
  }
  if (targets.length > 0) {
    lines.push("## Performance issue: targets", "", "| target | measured | met | run |", "| --- | ---: | --- | --- |");
    for (const t of targets) lines.push(`| ${t.target} | ${t.measured} | ${t.met ? "yes" : "**no**"} | ${t.date?.slice(0, 16) ?? ""} |`);
    lines.push("");
  }
  return lines;
}

const lines = [
  "# servicenet benchmarks",
  "",
  `${out.date} · ${machine.cpus} × ${machine.model} · ${machine.memoryGiB} GiB · Node ${machine.node}`,
  "",
  ...issueSection(),
  "## Every figure",
  "",
  "| package | benchmark | figure | value | unit |",
  "| --- | --- | --- | --- | --- |",
  ...results.flatMap(tableRows),
  "",
];
fs.writeFileSync(path.join(root, "bench", "results.md"), lines.join("\n"));
console.log(lines.join("\n"));
process.exit(failed ? 1 : 0);
