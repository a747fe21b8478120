/**
 * The cost of API Priority and Fairness per request: Service creates/s through the HTTP API with
 * APF on (a token user classified into global-default) and off (no limit at all), in the same run,
 * alternating rounds so that the machine's load weighs on both alike. The figure to read is the
 * ratio (goal: within 5 %); the dispatcher's own cost per request, in process, is measured apart
 * (apf-dispatch.ts), free of the HTTP path's noise. Writes bench/results-apf.json.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/apf.bench.ts` (also in `npm run bench`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startApiServer } from "../src/controlplane/apiserver.ts";
import { dispatchNsPerRequest } from "./apf-dispatch.ts";
import { load } from "./http-load.ts";

const concurrency = 16;
const perRound = Number(process.env["APF_BENCH_CREATES"] ?? 3000);
const rounds = Number(process.env["APF_BENCH_ROUNDS"] ?? 3);

async function createsPerSecond(apf: boolean, round: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-apf-bench-"));
  mkdirSync(join(dir, "data"));
  writeFileSync(join(dir, "data", "tokens.csv"), "benchtoken,bench,bench-uid\n");
  const api = await startApiServer({
    storage: { backend: "sqlite", path: join(dir, "bench.db") },
    dataDir: join(dir, "data"),
    serviceClusterIPRange: "10.0.0.0/16,2000::/108",
    tls: false,
    port: 0,
    authorizationModes: ["AlwaysAllow"],
    flowControl: apf ? {} : { enablePriorityAndFairness: false, maxRequestsInflight: 0, maxMutatingRequestsInflight: 0 },
  });
  const { seconds } = await load({
    url: `${api.url}/api/v1/namespaces/default/services`,
    concurrency,
    total: perRound,
    prefix: `r${round}-`,
    spec: { ipFamilyPolicy: "PreferDualStack" },
    headers: { Authorization: "Bearer benchtoken" },
  });
  await api.close();
  rmSync(dir, { recursive: true, force: true });
  return perRound / seconds;
}

async function main(): Promise<void> {
  const on: number[] = [];
  const off: number[] = [];
  for (let r = 0; r < rounds; r++) {
    // Alternate which goes first so neither always gets the warmer process.
    const order = r % 2 === 0 ? [true, false] : [false, true];
    for (const apf of order) (apf ? on : off).push(await createsPerSecond(apf, r));
    console.log(`apf round ${r}: on ${Math.round(on[r]!)} creates/s, off ${Math.round(off[r]!)} creates/s`);
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const withAPF = Math.round(median(on));
  const without = Math.round(median(off));
  const ratio = Number((withAPF / without).toFixed(3));
  console.log(`apf: with ${withAPF} creates/s, without ${without} creates/s, ratio ${ratio} (goal >= 0.95)`);
  const dispatchNs = Math.round(await dispatchNsPerRequest(Number(process.env["APF_BENCH_DISPATCHES"] ?? 100_000), 5));
  console.log(`apf: the dispatcher alone takes ${dispatchNs} ns per request (in process)`);
  const name = `service create with and without APF (HTTP, sqlite, c${concurrency})`;
  const results = [
    { name, metric: "creates/s with APF", value: withAPF, unit: "1/s" },
    { name, metric: "creates/s without APF", value: without, unit: "1/s" },
    { name, metric: "with/without", value: ratio, unit: "" },
    { name: "APF dispatch in process (FlowControl.handle, bootstrap config)", metric: "ns per request", value: dispatchNs, unit: "ns" },
  ];
  const env = {
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? "",
    loadavg1m: loadavg()[0],
    date: new Date().toISOString(),
  };
  const targets = [{ name: "APF cost per create", target: "with/without >= 0.95", measured: ratio, met: ratio >= 0.95 }];
  const out = join(dirname(fileURLToPath(import.meta.url)), "results-apf.json");
  writeFileSync(out, JSON.stringify({ env, results, targets, rounds: { on, off } }, null, 2) + "\n");
  console.log(`wrote ${out}`);
}

await main();
