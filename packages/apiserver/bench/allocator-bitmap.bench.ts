/**
 * Legacy bitmap allocator benchmark (target: bitmap allocate <= 1 us/op;
 * upstream Go BenchmarkIPAllocatorAllocateNextIPv4Size1048574: 871 ns/op on a /12).
 * - in-memory Range.allocateNext on 10.0.0.0/12 (1,048,574 addresses), sync and awaited, per slice
 *   of the fill so that growth of the cost with the number allocated shows;
 * - StoredRange (RangeAllocation CAS writes, batched) allocations/s on sqlite at concurrency 1 and
 *   16, memory at 16, etcd at 16 when SERVICENET_ETCD_ENDPOINTS is set, on 10.0.0.0/16.
 * Writes bench/results-allocator-bitmap.json.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/allocator-bitmap.bench.ts`.
 */
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCIDRSloppy } from "@servicenet/api";
import { seededRandom } from "../src/registry/core/service/allocator/random.ts";
import { Range } from "../src/registry/core/service/ipallocator/bitmap.ts";
import { StoredRange } from "../src/registry/core/service/ipallocator/stored-range.ts";
import type { BackendName } from "../src/storage/index.ts";
import { etcdEndpointsFromEnv, openTestStore } from "../src/storage/testing.ts";

interface Result {
  name: string;
  metric: string;
  value: number;
  unit: string;
}

const results: Result[] = [];
const runs: Record<string, unknown>[] = [];

function inMemorySync(): void {
  const r = new Range(parseCIDRSloppy("10.0.0.0/12")!, { random: seededRandom(1) });
  const slices = [0, 100_000, 200_000, 300_000, 400_000, 500_000];
  const perSlice: number[] = [];
  for (let i = 1; i < slices.length; i++) {
    const n = slices[i]! - slices[i - 1]!;
    const t0 = process.hrtime.bigint();
    for (let j = 0; j < n; j++) r.allocateNextSync();
    perSlice.push(Number(process.hrtime.bigint() - t0) / n);
  }
  const avg = perSlice.reduce((a, b) => a + b, 0) / perSlice.length;
  results.push({
    name: "bitmap Range.allocateNext (in memory, /12, sync)",
    metric: "ns/op (first 500k)",
    value: Math.round(avg),
    unit: "ns",
  });
  results.push({
    name: "bitmap Range.allocateNext (in memory, /12, sync)",
    metric: "ns/op (400k-500k allocated)",
    value: Math.round(perSlice.at(-1)!),
    unit: "ns",
  });
  runs.push({ bench: "in-memory sync /12", slices: slices.slice(1), nsPerOp: perSlice.map(Math.round), used: r.used() });
}

async function inMemoryAsync(): Promise<void> {
  const r = new Range(parseCIDRSloppy("10.0.0.0/12")!, { random: seededRandom(2) });
  const n = 200_000;
  const t0 = process.hrtime.bigint();
  for (let j = 0; j < n; j++) await r.allocateNext();
  const ns = Number(process.hrtime.bigint() - t0) / n;
  results.push({
    name: "bitmap Range.allocateNext (in memory, /12, awaited)",
    metric: "ns/op (first 200k)",
    value: Math.round(ns),
    unit: "ns",
  });
  runs.push({ bench: "in-memory awaited /12", ops: n, nsPerOp: Math.round(ns) });
}

async function stored(backend: BackendName, concurrency: number, total: number): Promise<void> {
  const t = await openTestStore(backend);
  try {
    const r = new StoredRange({ cidr: parseCIDRSloppy("10.0.0.0/16")!, store: t.store, random: seededRandom(3) });
    await r.ensureInitialized();
    for (let i = 0; i < 200; i++) await r.allocateNext(); // warm-up
    const lat: number[] = [];
    let issued = 0;
    const worker = async (): Promise<void> => {
      while (issued < total) {
        issued++;
        const s = performance.now();
        await r.allocateNext();
        lat.push(performance.now() - s);
      }
    };
    const w0 = r.stats().writes;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = (performance.now() - t0) / 1000;
    lat.sort((a, b) => a - b);
    const perSecond = Math.round(total / seconds);
    const writes = r.stats().writes - w0;
    const name = `StoredRange.allocateNext (${backend}, /16)`;
    results.push({ name, metric: `allocations/s c${concurrency}`, value: perSecond, unit: "1/s" });
    results.push({ name, metric: `p99 c${concurrency}`, value: +lat[Math.floor(lat.length * 0.99)]!.toFixed(3), unit: "ms" });
    runs.push({
      backend,
      concurrency,
      allocations: total,
      seconds: +seconds.toFixed(3),
      allocationsPerSecond: perSecond,
      writes,
      opsPerWrite: +(total / writes).toFixed(1),
      p50ms: +lat[Math.floor(lat.length * 0.5)]!.toFixed(3),
      p99ms: +lat[Math.floor(lat.length * 0.99)]!.toFixed(3),
    });
    console.log(`${name} c${concurrency}: ${perSecond}/s, ${writes} writes (${(total / writes).toFixed(1)} ops/write)`);
  } finally {
    await t.cleanup();
  }
}

async function main(): Promise<void> {
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  inMemorySync();
  await inMemoryAsync();
  console.log(results.map((r) => `${r.name} ${r.metric}: ${r.value} ${r.unit}`).join("\n"));
  await stored("sqlite", 1, 3_000);
  await stored("sqlite", 16, 20_000);
  await stored("memory", 16, 20_000);
  if (etcdEndpointsFromEnv()) await stored("etcd", 16, 6_000);
  else console.warn("allocator bench: SERVICENET_ETCD_ENDPOINTS is unset, skipping etcd");
  const env = {
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? "",
    loadavg1m: loadavg()[0],
    date: new Date().toISOString(),
  };
  const out = join(dirname(fileURLToPath(import.meta.url)), "results-allocator-bitmap.json");
  writeFileSync(out, JSON.stringify({ env, results, runs }, null, 2) + "\n");
  console.log(`wrote ${out}`);
}

await main();
