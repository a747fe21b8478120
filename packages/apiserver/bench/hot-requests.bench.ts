/**
 * The apiserver's CPU per request of the pod-lifecycle pipeline's hot kinds, over HTTP against the
 * in-process server (sqlite, plain HTTP, auth off, a worker-thread client from
 * hot-requests-client.ts, 8 lanes): a Lease renewal PUT (only `spec.renewTime` changes), a
 * `pods/status` merge patch (the Ready condition flips), a `pods/binding` POST, an Event create,
 * an EndpointSlice PUT (its endpoint changes), and a watch event fanned out (Lease PUTs with 50
 * Lease watches open, minus the PUT alone, over 50). CPU is the server's main thread's
 * (/proc, the client's worker thread excluded); the best of three rounds per kind.
 * Writes bench/results-hot-requests.json (not with HOT_KINDS). Profile one kind with
 * `HOT_KINDS=lease node --cpu-prof …`.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/hot-requests.bench.ts [--per-lane N]`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { startApiServer, type ApiServer } from "../src/controlplane/apiserver.ts";
import type { HotJob, HotKind } from "./hot-requests-client.ts";
import { mainThreadCpuMs } from "./proc-cpu.ts";

const arg = process.argv.indexOf("--per-lane");
const perLane = arg > 0 ? Number(process.argv[arg + 1]) : 250;
const lanes = 8;
const watchers = 50;
const rounds = 3;
// HOT_KINDS=lease,… measures only those (for a profile of one kind); the watch fan-out needs lease.
const only = process.env["HOT_KINDS"]?.split(",");

function client(job: HotJob): Promise<{ seconds: number }> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL("./hot-requests-client.ts", import.meta.url), { workerData: job });
    w.once("message", resolve);
    w.once("error", reject);
    w.once("exit", (code) => reject(new Error(`client exited (code ${code}) without a result`)));
  });
}

async function post(api: ApiServer, path: string, body: unknown): Promise<void> {
  const res = await fetch(api.url + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`POST ${path}: HTTP ${res.status} ${await res.text()}`);
}

const pod = (name: string) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, labels: { app: "web", "pod-template-hash": "5d8f7c9b6" } },
  spec: { containers: [{ name: "nginx", image: "nginx", ports: [{ containerPort: 80 }], resources: { requests: { cpu: "10m" } } }] },
});

/** The objects the lanes write: a Lease, an EndpointSlice and a Pod per lane. */
async function seed(api: ApiServer): Promise<void> {
  // The ServiceAccount admission plugin admits a Pod only with its namespace's default ServiceAccount
  // (the controller-manager's serviceaccount controller makes it in a cluster).
  await post(api, "/api/v1/namespaces/default/serviceaccounts", { metadata: { name: "default" } });
  for (let l = 0; l < lanes; l++) {
    await post(api, "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases", {
      metadata: { name: `node-${l}` },
      spec: { holderIdentity: `node-${l}`, leaseDurationSeconds: 40, renewTime: "2026-12-06T00:00:00.000000Z" },
    });
    await post(api, "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", {
      metadata: { name: `web-${l}`, labels: { "kubernetes.io/service-name": "web" } },
      addressType: "IPv4",
      ports: [{ name: "", port: 80, protocol: "TCP" }],
      endpoints: [],
    });
    await post(api, "/api/v1/namespaces/default/pods", pod(`pod-${l}`));
  }
}

/** Server main-thread CPU µs per request of `kind` (best of `rounds`); bindings bind fresh Pods each round. */
async function measure(api: ApiServer, kind: HotKind, w = 0): Promise<number> {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const bindPrefix = `bind-${r}-${w}`;
    if (kind === "binding")
      for (let i = 0; i < perLane * lanes; i++) await post(api, "/api/v1/namespaces/default/pods", pod(`${bindPrefix}-${i}`));
    const cpu0 = mainThreadCpuMs();
    await client({ base: api.url, kind, perLane, lanes, watchers: w, bindPrefix });
    best = Math.min(best, ((mainThreadCpuMs() - cpu0) * 1000) / (perLane * lanes));
  }
  return Math.round(best);
}

const dir = mkdtempSync(join(tmpdir(), "servicenet-hot-bench-"));
const api = await startApiServer({ storage: { backend: "sqlite", path: join(dir, "bench.db") }, tls: false, auth: false, port: 0 });
await seed(api);
// A warm-up round of each kind (JIT, statements, sockets).
await client({ base: api.url, kind: "lease", perLane: 50, lanes, watchers: 0 });
const results: Record<string, number> = {};
for (const kind of ["lease", "podStatus", "binding", "event", "endpointSlice"] as const)
  if (only === undefined || only.includes(kind)) results[`${kind}CpuMicros`] = await measure(api, kind);
if (only === undefined) {
  const withWatchers = await measure(api, "lease", watchers);
  results["watchEventCpuMicros"] = Math.round((withWatchers - (results["leaseCpuMicros"] ?? 0)) / watchers);
}
await api.close();
rmSync(dir, { recursive: true, force: true });

const names: Record<string, string> = {
  leaseCpuMicros: "Lease renewal PUT (renewTime only)",
  podStatusCpuMicros: "pods/status merge patch (Ready flips)",
  bindingCpuMicros: "pods/binding POST",
  eventCpuMicros: "Event create",
  endpointSliceCpuMicros: "EndpointSlice PUT (endpoint changes)",
  watchEventCpuMicros: "watch event fanned out (per watcher)",
};
const env = { node: process.version, cpus: cpus().length, loadavg1m: Number(loadavg()[0]!.toFixed(1)), date: new Date().toISOString() };
const out = {
  env,
  config: { lanes, perLane, watchers },
  results: Object.entries(results).map(([k, value]) => ({ name: `apiserver CPU per ${names[k] ?? k}`, value, unit: "µs" })),
};
console.log(JSON.stringify(out, null, 2));
if (only === undefined)
  writeFileSync(join(dirname(fileURLToPath(import.meta.url)), "results-hot-requests.json"), JSON.stringify(out, null, 2) + "\n");
