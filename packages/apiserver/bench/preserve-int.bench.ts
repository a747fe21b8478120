/**
 * What keeping a custom resource's int64s costs (util/json): microseconds per parse of a custom
 * resource of about 1 KB and one of about 1 MB with JSON.parse, with parseJSON on text without a
 * 16-digit run (its gate, then JSON.parse) and on the same text holding math.MaxInt64 (its own
 * parser), and per write with JSON.stringify and with stringifyJSON of an object holding a bigint
 * (JSON.stringify first, then its own walk). Rounds alternate so that the machine's load hits
 * each alike; medians of 9. Writes bench/results-preserve-int.json.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/preserve-int.bench.ts`.
 */
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseJSON, stringifyJSON } from "../src/util/json/json.ts";

/** A custom resource with `items` list entries (each about 150 bytes) and `num1` as given. */
function customResource(items: number, num1: string): string {
  const entries = Array.from(
    { length: items },
    (_, i) => `{"name":"entry-${i}","port":${8000 + i},"weight":0.${i % 10}5,"enabled":${i % 2 === 0},"tags":["a","b"],"note":"x\\ty"}`,
  );
  return (
    `{"apiVersion":"mygroup.example.com/v1","kind":"Noxu","metadata":{"name":"n","namespace":"default",` +
    `"uid":"6c1b9d3e-1f2a-4b5c-8d7e-9f0a1b2c3d4e","resourceVersion":"12345","generation":1,` +
    `"creationTimestamp":"2026-12-06T06:00:00Z"},"spec":{"num1":${num1},"num2":1000000,"items":[${entries.join(",")}]}}`
  );
}

/** Microseconds per call of `f`, over enough calls to take about `ms` milliseconds. */
function microsPerCall(f: () => unknown, ms: number): number {
  let n = 1;
  for (;;) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) f();
    const took = Number(process.hrtime.bigint() - t0) / 1e6;
    if (took >= ms) return (took * 1000) / n;
    n *= 2;
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sizes = [
  { label: "1 KB", items: 5 },
  { label: "1 MB", items: 7000 },
];
const rounds = 9;
const results: { name: string; metric: string; value: number; unit: string }[] = [];
for (const { label, items } of sizes) {
  const plain = customResource(items, "1000000");
  const large = customResource(items, "9223372036854775807");
  const value = parseJSON(large);
  const plainValue = JSON.parse(plain) as unknown;
  const cases: [string, () => unknown][] = [
    ["JSON.parse", () => JSON.parse(large)],
    ["parseJSON, no 16-digit run (gate + JSON.parse)", () => parseJSON(plain)],
    ["parseJSON, math.MaxInt64 in it (own parser)", () => parseJSON(large)],
    ["JSON.stringify, no bigint", () => JSON.stringify(plainValue)],
    ["stringifyJSON, no bigint", () => stringifyJSON(plainValue)],
    ["stringifyJSON, a bigint in it", () => stringifyJSON(value)],
  ];
  const times = cases.map(() => [] as number[]);
  const budget = items > 100 ? 60 : 30;
  for (let r = 0; r < rounds; r++) cases.forEach(([, f], i) => times[i]!.push(microsPerCall(f, budget)));
  const name = `a custom resource of ${label} (${(large.length / 1024).toFixed(0)} KiB), median of ${rounds}`;
  cases.forEach(([metric], i) =>
    results.push({ name, metric: `µs per call: ${metric}`, value: Number(median(times[i]!).toFixed(1)), unit: "µs" }),
  );
}
const doc = {
  env: { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? "", loadavg1m: loadavg()[0], date: new Date().toISOString() },
  results,
};
for (const r of results) console.log(`${r.name}: ${r.metric} ${r.value}`);
writeFileSync(join(dirname(fileURLToPath(import.meta.url)), "results-preserve-int.json"), JSON.stringify(doc, null, 2) + "\n");
