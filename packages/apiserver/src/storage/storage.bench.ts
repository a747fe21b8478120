/**
 * Storage benchmark: creates/s and create latency (p50/p99) per backend at concurrency 1 and 16,
 * with a ~1 KB Service-like object. Writes bench/results-storage.json.
 * Run: `npm run bench -w @servicenet/apiserver` (etcd only when SERVICENET_ETCD_ENDPOINTS is set).
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BackendName, KubeObject, StoreConfig } from "./interfaces.ts";
import { createStore } from "./storage.ts";
import { etcdEndpointsFromEnv } from "./testing.ts";

interface Result {
  backend: BackendName;
  concurrency: number;
  creates: number;
  seconds: number;
  createsPerSecond: number;
  p50ms: number;
  p99ms: number;
}

const counts: Record<BackendName, number> = { memory: 20_000, sqlite: 20_000, etcd: 6_000 };

function service(i: number): KubeObject {
  const name = `svc-${i}`;
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace: "bench", labels: { app: name, tier: "backend" }, annotations: { note: "x".repeat(400) } },
    spec: {
      type: "ClusterIP",
      clusterIP: `10.96.${(i >> 8) & 255}.${i & 255}`,
      clusterIPs: [`10.96.${(i >> 8) & 255}.${i & 255}`],
      ipFamilies: ["IPv4"],
      ipFamilyPolicy: "SingleStack",
      ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }],
      selector: { app: name },
      sessionAffinity: "None",
    },
    status: { loadBalancer: {} },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function run(backend: BackendName, concurrency: number): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-bench-"));
  const cfg: StoreConfig = { backend };
  if (backend === "sqlite") cfg.path = join(dir, "bench.db");
  if (backend === "etcd") {
    cfg.endpoints = etcdEndpointsFromEnv() ?? [];
    cfg.prefix = `/servicenet-bench/${randomUUID()}`;
  }
  const store = await createStore(cfg);
  const total = counts[backend];
  const latencies: number[] = [];
  let next = 0;
  // Warm up connections, statements and the JIT.
  for (let i = 0; i < 200; i++) await store.create(`/registry/services/specs/warmup/w${i}`, service(i));
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await store.create(`/registry/services/specs/bench/svc-${i}`, service(i));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const round = (n: number, d = 3): number => Number(n.toFixed(d));
  return {
    backend,
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
  const backends: BackendName[] = ["memory", "sqlite"];
  if (etcdEndpointsFromEnv()) backends.push("etcd");
  else console.warn("bench: SERVICENET_ETCD_ENDPOINTS is unset, skipping etcd");
  const results: Result[] = [];
  for (const backend of backends) {
    for (const concurrency of [1, 16]) {
      const r = await run(backend, concurrency);
      results.push(r);
      console.log(
        `${backend.padEnd(7)} c=${String(concurrency).padStart(2)}  ${String(r.createsPerSecond).padStart(7)} creates/s  p50 ${r.p50ms.toFixed(3)} ms  p99 ${r.p99ms.toFixed(3)} ms  (${r.creates} in ${r.seconds}s)`,
      );
    }
  }
  const out = join(dirname(fileURLToPath(import.meta.url)), "../../bench/results-storage.json");
  mkdirSync(dirname(out), { recursive: true });
  // The load average says how much the machine was shared while measuring (figures vary with it).
  const env = {
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? "",
    loadavg1m: loadavg()[0],
    date: new Date().toISOString(),
  };
  writeFileSync(out, JSON.stringify({ env, results }, null, 2) + "\n");
  console.log(`wrote ${out}`);
}

await main();
