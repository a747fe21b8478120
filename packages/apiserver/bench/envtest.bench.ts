/**
 * envtest benchmark (targets reported, not asserted): in-memory
 * `startTestEnvironment` over HTTP, start to ready (median of 7, after one warm-up start that
 * pays module loading) and `reset()` after each test-sized batch of user objects (a namespace, 5
 * Services with ClusterIPs and NodePorts, 5 Endpoints; median of 20). Targets:
 * start <= 50 ms, reset <= 5 ms. Also what a test file pays first: a fresh `node` process that
 * imports the built package and starts one environment (process start to ready, median of 5) and
 * that process's resident memory with the server up (the README's comparison with envtest and kwok).
 * Writes bench/results-envtest.json.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/envtest.bench.ts`.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTestEnvironment, type TestEnvironment } from "../src/envtest/index.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

async function startTimes(n: number): Promise<number[]> {
  await (await startTestEnvironment()).stop();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    const env = await startTestEnvironment();
    out.push(ms(t0));
    await env.stop();
  }
  return out;
}

/** Creates one test's objects over HTTP, as a client would (the server defaults them). */
async function userObjects(env: TestEnvironment, i: number): Promise<void> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${env.url}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  };
  const ns = `t${i}`;
  await post("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
  for (let j = 0; j < 5; j++) {
    await post(`/api/v1/namespaces/${ns}/services`, {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: `s${j}` },
      spec: { type: "NodePort", ports: [{ port: 80 }] },
    });
    await post(`/api/v1/namespaces/${ns}/endpoints`, { apiVersion: "v1", kind: "Endpoints", metadata: { name: `s${j}` }, subsets: [] });
  }
}

async function resetTimes(n: number): Promise<number[]> {
  const env = await startTestEnvironment();
  const out: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      await userObjects(env, i);
      const t0 = process.hrtime.bigint();
      await env.reset();
      out.push(ms(t0));
    }
  } finally {
    await env.stop();
  }
  return out;
}

/** A fresh process: node start + import of dist/envtest + first start, and its RSS with the server up. */
function coldStart(): { ms: number; rssMiB: number } {
  const entry = new URL("../dist/envtest/index.js", import.meta.url).href;
  const script =
    `const { startTestEnvironment } = await import(${JSON.stringify(entry)});` +
    "const env = await startTestEnvironment();" +
    "const ms = performance.now();" +
    "console.log(JSON.stringify({ ms, rssMiB: process.memoryUsage().rss / 2 ** 20 }));" +
    "await env.stop();";
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`cold start failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop()!) as { ms: number; rssMiB: number };
}

const cold = Array.from({ length: 5 }, coldStart);
const start = await startTimes(7);
const reset = await resetTimes(20);
const results = [
  { name: "envtest start (memory, http)", metric: "median", value: median(start), unit: "ms", target: 50 },
  { name: "envtest reset (1 namespace, 5 NodePort Services, 5 Endpoints)", metric: "median", value: median(reset), unit: "ms", target: 5 },
  {
    name: "envtest cold start (new node process, import, start)",
    metric: "median",
    value: median(cold.map((c) => c.ms)),
    unit: "ms",
    target: 1000,
  },
  {
    name: "envtest process RSS with one environment up",
    metric: "median",
    value: median(cold.map((c) => c.rssMiB)),
    unit: "MiB",
    target: 200,
  },
];
for (const r of results) console.log(`${r.name}: ${r.metric} ${r.value.toFixed(2)} ${r.unit} (target <= ${r.target})`);
const out = join(dirname(fileURLToPath(import.meta.url)), "results-envtest.json");
writeFileSync(
  out,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      loadavg: loadavg(),
      results,
      runs: { start, reset, cold },
    },
    null,
    2,
  ) + "\n",
);
