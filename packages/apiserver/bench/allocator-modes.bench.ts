/**
 * ClusterIP allocation in the three KEP-1880 allocator modes, side by side, on SQLite:
 * - in-process: the family allocator alone (StoredRange.allocateNext for the bitmap,
 *   MetaAllocator.allocateNextService for the IPAddress modes), 16 concurrent callers;
 * - through HTTP: SingleStack Service creates at concurrency 16 against an in-process apiserver.
 * Each runs (20,000 allocations in-process, 5,000 Service creates through HTTP) with an empty range and with 100,000 addresses already held (bits and/or IPAddress
 * objects written straight to storage), on 10.0.0.0/14 (262,142 addresses: room for 100,000
 * held, while the bitmap stays 32 KiB per write) and, for the IPAddress-only mode, on a /64. Ratios against the bitmap mode are printed.
 * Writes bench/results-allocator-modes.json. Run: `npm run bench -w @servicenet/apiserver`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatIP, parseCIDR, type IP } from "@servicenet/api";
import { startApiServer } from "../src/controlplane/apiserver.ts";
import { featureGatesForMode, type AllocatorMode } from "../src/features/kube-features.ts";
import { newServiceAllocators } from "../src/registry/core/rest/service-ip-allocators.ts";
import { rangeAllocationObject, serviceIPsKey } from "../src/registry/core/service/allocator/storage/keys.ts";
import { Range } from "../src/registry/core/service/ipallocator/bitmap.ts";
import type { StoredRange } from "../src/registry/core/service/ipallocator/stored-range.ts";
import { serviceIPAddress } from "../src/registry/core/service/ipallocator/ipaddress-client.ts";
import { createStore, objectKey, type Store } from "../src/storage/index.ts";
import { load, percentile } from "./http-load.ts";

interface Case {
  mode: AllocatorMode;
  range: string;
}

const cases: Case[] = [
  { mode: "bitmap", range: "10.0.0.0/14" },
  { mode: "dual-write", range: "10.0.0.0/14" },
  { mode: "ipaddress", range: "10.0.0.0/14" },
  { mode: "ipaddress", range: "fd00:10:96::/64" },
];
const held = [0, 100_000];
/**
 * Allocations per case. In-process runs are fast enough that 5,000 fit in a third of a second,
 * where one major GC of the 100k-held heap moves the figure by a third; 20,000 keep it steady.
 */
const ops = { inProcess: 20_000, http: 5_000 };
const concurrency = 16;

/** Writes `n` held addresses (bitmap bits and/or IPAddress objects, as the mode keeps them) straight to storage. */
async function preallocate(store: Store, c: Case, n: number): Promise<void> {
  // What the default ServiceCIDR controller would have created.
  if (c.mode !== "bitmap")
    await store.create(objectKey("servicecidrs", undefined, "kubernetes"), {
      apiVersion: "networking.k8s.io/v1",
      kind: "ServiceCIDR",
      metadata: { name: "kubernetes", creationTimestamp: new Date().toISOString() },
      spec: { cidrs: [c.range] },
    });
  if (n === 0) return;
  const cidr = parseCIDR(c.range)!;
  const bitmap = new Range(cidr.family === "IPv6" ? parseCIDR("fd00:10:96::/112")! : cidr);
  const ips =
    c.mode === "ipaddress" && cidr.family === "IPv6"
      ? Array.from({ length: n }, (_, i): IP => ({ family: "IPv6", value: cidr.ip.value + 1000n + BigInt(i) * 7919n }))
      : Array.from({ length: n }, () => bitmap.allocateNextSync());
  if (c.mode !== "ipaddress") await store.create(serviceIPsKey, rangeAllocationObject(bitmap.snapshot()));
  if (c.mode === "bitmap") return;
  for (let i = 0; i < ips.length; i += 1000) {
    await Promise.all(
      ips.slice(i, i + 1000).map((ip, j) =>
        store.create(objectKey("ipaddresses", undefined, formatIP(ip)), {
          ...serviceIPAddress(ip, { namespace: "default", name: `held-${i + j}` }),
          metadata: {
            ...serviceIPAddress(ip, { namespace: "default", name: "x" }).metadata,
            creationTimestamp: new Date().toISOString(),
          },
        }),
      ),
    );
  }
}

interface Figure {
  perSecond: number;
  p99ms: number;
}

async function inProcess(c: Case, n: number): Promise<Figure> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-alloc-bench-"));
  const store = await createStore({ backend: "sqlite", path: join(dir, "bench.db") });
  await preallocate(store, c, n);
  const sa = await newServiceAllocators({ store, serviceClusterIPRange: c.range, featureGates: featureGatesForMode(c.mode) });
  const a = sa.allocators.serviceIPAllocatorsByFamily.get(sa.ranges.primary.family)!;
  // In bitmap mode the legacy repair loop creates the RangeAllocation; there is none here.
  for (const b of sa.bitmaps.values()) await (b as StoredRange).ensureInitialized();
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ops.inProcess) {
        const i = next++;
        const t0 = performance.now();
        if (a.allocateNextService) await a.allocateNextService({ namespace: "default", name: `svc-${i}` });
        else await a.allocateNext();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  sa.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  latencies.sort((x, y) => x - y);
  return { perSecond: Math.round(ops.inProcess / seconds), p99ms: Number(percentile(latencies, 99).toFixed(3)) };
}

async function overHTTP(c: Case, n: number): Promise<Figure> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-alloc-bench-"));
  const path = join(dir, "bench.db");
  const pre = await createStore({ backend: "sqlite", path });
  await preallocate(pre, c, n);
  await pre.close();
  const api = await startApiServer({
    storage: { backend: "sqlite", path },
    serviceClusterIPRange: c.range,
    featureGates: featureGatesForMode(c.mode),
    tls: false,
    auth: false,
    port: 0,
  });
  const { seconds, latencies } = await load({
    url: `${api.url}/api/v1/namespaces/default/services`,
    concurrency,
    total: ops.http,
    spec: {},
  });
  await api.close();
  rmSync(dir, { recursive: true, force: true });
  latencies.sort((x, y) => x - y);
  return { perSecond: Math.round(ops.http / seconds), p99ms: Number(percentile(latencies, 99).toFixed(3)) };
}

async function main(): Promise<void> {
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const results: Array<{ name: string; metric: string; value: number; unit: string }> = [];
  const base = new Map<string, number>();
  for (const where of ["in-process", "HTTP"] as const) {
    for (const c of cases) {
      for (const n of held) {
        const f = where === "HTTP" ? await overHTTP(c, n) : await inProcess(c, n);
        const name = `ClusterIP allocation ${where} (sqlite, ${c.mode}, ${c.range}, ${n} held)`;
        const key = `${where}/${c.range.includes(":") ? "v6" : "v4"}/${n}`;
        if (c.mode === "bitmap") base.set(key, f.perSecond);
        const ratio = base.get(key.replace("/v6/", "/v4/"));
        console.log(
          `${name.padEnd(86)} ${String(f.perSecond).padStart(6)}/s  p99 ${f.p99ms.toFixed(2)} ms${ratio ? `  x${(f.perSecond / ratio).toFixed(2)} of bitmap` : ""}`,
        );
        results.push(
          { name, metric: "allocations/s c16", value: f.perSecond, unit: "1/s" },
          { name, metric: "p99 c16", value: f.p99ms, unit: "ms" },
        );
        if (ratio && c.mode !== "bitmap")
          results.push({ name, metric: "ratio to bitmap", value: Number((f.perSecond / ratio).toFixed(2)), unit: "" });
      }
    }
  }
  const out = join(dirname(fileURLToPath(import.meta.url)), "results-allocator-modes.json");
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
