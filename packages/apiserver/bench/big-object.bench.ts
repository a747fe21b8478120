/**
 * What one near-limit object (a Service of 60,000 labels, 1.4 MB stored with its managed fields,
 * the flood e2e's) costs the apiserver's event loop, step by step through HTTP: create, GET, LIST
 * of its namespace, a merge patch delivered to a watcher, a PUT, a server-side apply and a delete.
 * An in-process apiserver (plain HTTP, auth off, SQLite as `servicenet up`) serves a client in a
 * worker thread (big-object-client.ts), so the client's parsing does not count. Per step: the
 * longest turn of the server's loop (perf_hooks.monitorEventLoopDelay at 1 ms resolution) and the
 * main thread's CPU ms (/proc), median of the rounds. Writes bench/results-big-object.json.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/big-object.bench.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { startApiServer } from "../src/controlplane/apiserver.ts";
import { bigObjectSteps, type StepMessage } from "./big-object-client.ts";
import { mainThreadCpuMs } from "./proc-cpu.ts";

const rounds = Number(process.env["BIG_OBJECT_ROUNDS"] ?? 5);

interface Figures {
  maxTurnMs: number[];
  cpuMs: number[];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-big-object-bench-"));
  const api = await startApiServer({
    storage: { backend: "sqlite", path: join(dir, "bench.db") },
    serviceClusterIPRange: "10.0.0.0/16",
    tls: false,
    auth: false,
    port: 0,
  });
  const loadBefore = loadavg()[0]!;
  const figures = new Map<string, Figures>(bigObjectSteps.map((s) => [s, { maxTurnMs: [], cpuMs: [] }]));
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let cpuAtStart = 0;
  await new Promise<void>((resolve, reject) => {
    const w = new Worker(new URL("./big-object-client.ts", import.meta.url), { workerData: { url: api.url, rounds } });
    w.on("message", (m: StepMessage) => {
      if (m.kind === "start") {
        delay.reset();
        cpuAtStart = mainThreadCpuMs();
        w.postMessage("go");
      } else if (m.kind === "end") {
        const f = figures.get(m.step)!;
        f.cpuMs.push(mainThreadCpuMs() - cpuAtStart);
        // The histogram's delay past its 1 ms resolution is the longest turn.
        f.maxTurnMs.push(Math.max(0, delay.max / 1e6 - 1));
        w.postMessage("go");
      } else resolve();
    });
    w.once("error", reject);
    w.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`client exited with ${code}`))));
  });
  delay.disable();
  await api.close();
  rmSync(dir, { recursive: true, force: true });

  const median = (xs: number[]): number => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);
  const name = `near-limit Service (60,000 labels, SQLite, HTTP), median of ${rounds}`;
  const results = [...figures].flatMap(([step, f]) => [
    { name, metric: `${step}: longest turn`, value: median(f.maxTurnMs), unit: "ms" },
    { name, metric: `${step}: server CPU`, value: median(f.cpuMs), unit: "ms" },
  ]);
  for (const [step, f] of figures)
    console.log(
      `${step.padEnd(14)} longest turn ${String(median(f.maxTurnMs)).padStart(5)} ms  CPU ${String(median(f.cpuMs)).padStart(5)} ms`,
    );
  const doc = {
    env: { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? "", loadavg1m: loadBefore, date: new Date().toISOString() },
    results,
  };
  writeFileSync(join(dirname(fileURLToPath(import.meta.url)), "results-big-object.json"), JSON.stringify(doc, null, 2) + "\n");
}

await main();
