/**
 * Allocation benchmark (in memory, no storage): dual-stack RequireDualStack
 * creates through Allocators.allocateCreate + commit, at concurrency 1 and 16,
 * and the cost of AllocateNext in a nearly full /16. Writes
 * packages/apiserver/bench/results-service-alloc.json.
 * Run from packages/apiserver:
 *   node --import ./src/storage/testdata/register-ts.mjs src/registry/core/service/storage/alloc.bench.ts
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeService, makeTestAllocators, setIPFamilyPolicy } from "./testing.ts";

interface Row {
  name: string;
  metric: string;
  value: number;
  unit: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function creates(n: number, concurrency: number): Promise<Row[]> {
  const t = makeTestAllocators("v4v6", 42);
  const lat: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const svc = makeService(`s${next++}`, setIPFamilyPolicy("RequireDualStack"));
        const t0 = performance.now();
        await (await t.alloc.allocateCreate(svc, false)).commit();
        lat.push(performance.now() - t0);
      }
    }),
  );
  const secs = (performance.now() - start) / 1000;
  lat.sort((a, b) => a - b);
  const name = `allocateCreate dual-stack c=${concurrency}`;
  return [
    { name, metric: "creates/s", value: Math.round(n / secs), unit: "1/s" },
    { name, metric: "p99", value: Number(percentile(lat, 99).toFixed(3)), unit: "ms" },
  ];
}

async function nearlyFull(): Promise<Row[]> {
  const t = makeTestAllocators("v4", 7);
  const r = t.ranges.get("IPv4")!;
  while (r.free() > 100) r.allocateNextSync();
  const t0 = performance.now();
  for (let i = 0; i < 100; i++) r.allocateNextSync();
  return [
    { name: "AllocateNext /16 last 100 of 65534", metric: "mean", value: Number(((performance.now() - t0) / 100).toFixed(4)), unit: "ms" },
  ];
}

const results = [...(await creates(20_000, 1)), ...(await creates(20_000, 16)), ...(await nearlyFull())];
for (const r of results) console.log(`${r.name}: ${r.metric} ${r.value} ${r.unit}`);
const out = join(dirname(fileURLToPath(import.meta.url)), "../../../../../bench/results-service-alloc.json");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ results }, null, 2) + "\n");
