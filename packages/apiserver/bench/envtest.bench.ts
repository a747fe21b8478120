/**
 * envtest benchmark (servicenet issue #23 targets, reported, not asserted): in-memory
 * `startTestEnvironment` over HTTP, start to ready (median of 7, after one warm-up start that
 * pays module loading) and `reset()` after each test-sized batch of user objects (a namespace, 5
 * Services with ClusterIPs and NodePorts, 5 Endpoints; median of 20). Targets:
 * start <= 50 ms, reset <= 5 ms.
 * Writes bench/results-envtest.json.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/envtest.bench.ts`.
 */
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

const start = await startTimes(7);
const reset = await resetTimes(20);
const results = [
  { name: "envtest start (memory, http)", metric: "median", value: median(start), unit: "ms", target: 50 },
  { name: "envtest reset (1 namespace, 5 NodePort Services, 5 Endpoints)", metric: "median", value: median(reset), unit: "ms", target: 5 },
];
for (const r of results) console.log(`${r.name}: ${r.metric} ${r.value.toFixed(2)} ${r.unit} (target <= ${r.target})`);
const out = join(dirname(fileURLToPath(import.meta.url)), "results-envtest.json");
writeFileSync(
  out,
  JSON.stringify(
    { date: new Date().toISOString(), node: process.version, cpus: cpus().length, loadavg: loadavg(), results, runs: { start, reset } },
    null,
    2,
  ) + "\n",
);
