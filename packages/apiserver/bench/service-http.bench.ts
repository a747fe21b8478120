/**
 * Service create benchmark through the HTTP API: an in-process apiserver (plain HTTP, auth off)
 * on SQLite in a dual-stack cluster (10.0.0.0/16,2000::/108); every POST is a PreferDualStack
 * Service, so each create allocates one IPv4 and one IPv6 ClusterIP. Creates/s and p50/p99 at
 * concurrency 1 and 16 over keep-alive connections from a worker-thread client
 * (this file in a worker thread). Writes bench/results-service-http.json.
 * Run: `npm run bench -w @servicenet/apiserver` (after the storage bench).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { startApiServer } from "../src/controlplane/apiserver.ts";

interface Run {
  concurrency: number;
  creates: number;
  seconds: number;
  createsPerSecond: number;
  p50ms: number;
  p99ms: number;
}

const counts: Record<number, number> = { 1: 3_000, 16: 10_000 };

interface ClientJob {
  url: string;
  concurrency: number;
  total: number;
  warmup: number;
}

const body = (i: number | string): string =>
  JSON.stringify({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: `svc-${i}`, labels: { app: `svc-${i}`, tier: "backend" } },
    spec: { ipFamilyPolicy: "PreferDualStack", selector: { app: `svc-${i}` }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
  });

/** One POST over `agent`; resolves with the status after the whole response was read. */
function post(agent: Agent, url: string, payload: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) };
    const req = request(url, { method: "POST", agent, headers }, (res) => {
      res.on("data", () => {});
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** The load generator (worker thread): `concurrency` loops POSTing until `total` creates are done. */
async function client({ url, concurrency, total, warmup }: ClientJob): Promise<{ seconds: number; latencies: number[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  // Warm up sockets, statements and the JIT (names not reused by the measured creates).
  for (let i = 0; i < warmup; i++) await post(agent, url, body(`w${i}`));
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        const status = await post(agent, url, body(i));
        if (status !== 201) throw new Error(`create svc-${i}: HTTP ${status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { seconds, latencies };
}

/**
 * Runs this file again as a worker thread that plays the client, so the client's own HTTP work
 * does not compete with the server for the main thread (a real client is another process).
 */
function load(url: string, concurrency: number, total: number): Promise<{ seconds: number; latencies: number[] }> {
  return new Promise((resolve, reject) => {
    const job: ClientJob = { url, concurrency, total, warmup: 300 };
    const w = new Worker(new URL(import.meta.url), { workerData: job });
    w.once("message", (m: { seconds: number; latencies: number[] }) => resolve(m));
    w.once("error", reject);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function run(concurrency: number): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-http-bench-"));
  const api = await startApiServer({ storage: { backend: "sqlite", path: join(dir, "bench.db") }, serviceClusterIPRange: "10.0.0.0/16,2000::/108", tls: false, auth: false, port: 0 });
  const total = counts[concurrency] ?? 3_000;
  const { seconds, latencies } = await load(`${api.url}/api/v1/namespaces/default/services`, concurrency, total);
  await api.close();
  rmSync(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const round = (n: number, d = 3): number => Number(n.toFixed(d));
  return { concurrency, creates: total, seconds: round(seconds), createsPerSecond: Math.round(total / seconds), p50ms: round(percentile(latencies, 50)), p99ms: round(percentile(latencies, 99)) };
}

async function main(): Promise<void> {
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  const name = "service create (HTTP, sqlite, dual-stack)";
  const results: Array<{ name: string; metric: string; value: number; unit: string }> = [];
  const runs: Run[] = [];
  for (const c of [1, 16]) {
    const r = await run(c);
    runs.push(r);
    console.log(`service HTTP c=${String(c).padStart(2)}  ${String(r.createsPerSecond).padStart(6)} creates/s  p50 ${r.p50ms.toFixed(3)} ms  p99 ${r.p99ms.toFixed(3)} ms  (${r.creates} in ${r.seconds}s)`);
    // c16 (the target figure) first in the file; c1 runs first so c16 does not warm it.
    results[c === 16 ? "unshift" : "push"](
      { name, metric: `creates/s c${c}`, value: r.createsPerSecond, unit: "1/s" },
      { name, metric: `p50 c${c}`, value: r.p50ms, unit: "ms" },
      { name, metric: `p99 c${c}`, value: r.p99ms, unit: "ms" },
    );
  }
  const out = join(dirname(fileURLToPath(import.meta.url)), "results-service-http.json");
  // The load average says how much the machine was shared while measuring (figures vary with it).
  const env = { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? "", loadavg1m: loadavg()[0], date: new Date().toISOString() };
  writeFileSync(out, JSON.stringify({ env, results, runs }, null, 2) + "\n");
  console.log(`wrote ${out}`);
}

if (isMainThread) await main();
else parentPort!.postMessage(await client(workerData as ClientJob));
