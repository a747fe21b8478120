/**
 * Service create benchmark through the HTTP API: an in-process apiserver (plain HTTP, auth off)
 * on SQLite in a dual-stack cluster (10.0.0.0/16,2000::/108); every POST is a PreferDualStack
 * Service, so each create allocates one IPv4 and one IPv6 ClusterIP. Creates/s and p50/p99 at
 * concurrency 1 and 16 over keep-alive connections from a worker-thread client (http-load.ts).
 * Runs in the default allocator mode (dual-write). Writes bench/results-service-http.json.
 * Run: `npm run bench -w @servicenet/apiserver` (after the storage bench).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startApiServer } from "../src/controlplane/apiserver.ts";
import { load, percentile } from "./http-load.ts";

interface Run {
  concurrency: number;
  creates: number;
  seconds: number;
  createsPerSecond: number;
  p50ms: number;
  p99ms: number;
}

const counts: Record<number, number> = { 1: 3_000, 16: 10_000 };

async function run(concurrency: number): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-http-bench-"));
  const api = await startApiServer({
    storage: { backend: "sqlite", path: join(dir, "bench.db") },
    serviceClusterIPRange: "10.0.0.0/16,2000::/108",
    tls: false,
    auth: false,
    port: 0,
  });
  const total = counts[concurrency] ?? 3_000;
  const { seconds, latencies } = await load({
    url: `${api.url}/api/v1/namespaces/default/services`,
    concurrency,
    total,
    spec: { ipFamilyPolicy: "PreferDualStack" },
  });
  await api.close();
  rmSync(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const round = (n: number, d = 3): number => Number(n.toFixed(d));
  return {
    concurrency,
    creates: total,
    seconds: round(seconds),
    createsPerSecond: Math.round(total / seconds),
    p50ms: round(percentile(latencies, 50)),
    p99ms: round(percentile(latencies, 99)),
  };
}

async function main(): Promise<void> {
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const name = "service create (HTTP, sqlite, dual-stack)";
  const results: Array<{ name: string; metric: string; value: number; unit: string }> = [];
  const runs: Run[] = [];
  for (const c of [1, 16]) {
    const r = await run(c);
    runs.push(r);
    console.log(
      `service HTTP c=${String(c).padStart(2)}  ${String(r.createsPerSecond).padStart(6)} creates/s  p50 ${r.p50ms.toFixed(3)} ms  p99 ${r.p99ms.toFixed(3)} ms  (${r.creates} in ${r.seconds}s)`,
    );
    // c16 (the target figure) first in the file; c1 runs first so c16 does not warm it.
    results[c === 16 ? "unshift" : "push"](
      { name, metric: `creates/s c${c}`, value: r.createsPerSecond, unit: "1/s" },
      { name, metric: `p50 c${c}`, value: r.p50ms, unit: "ms" },
      { name, metric: `p99 c${c}`, value: r.p99ms, unit: "ms" },
    );
  }
  const out = join(dirname(fileURLToPath(import.meta.url)), "results-service-http.json");
  // The load average says how much the machine was shared while measuring (figures vary with it).
  const env = {
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? "",
    loadavg1m: loadavg()[0],
    date: new Date().toISOString(),
  };
  writeFileSync(out, JSON.stringify({ env, results, runs }, null, 2) + "\n");
  console.log(`wrote ${out}`);
}

await main();
