// Pod lifecycle at scale (`npm run bench`): `npm start`'s cluster (scripts/up.mjs: apiserver,
// controller-manager with node IPAM, scheduler, one kubelet process with N simulated Nodes,
// dry-run kube-proxy) in a temp dir, then P bare Pods behind one Service, created through the API
// at a steady rate. Measured: Pod created -> Ready (Pods watch) and created -> ready endpoint
// (EndpointSlices watch), p50/p99; the kubelet process's CPU per Pod (/proc utime+stime over the
// run) and its memory per Node (RSS after registration, minus a 1-Node baseline, over N). Sizes:
// BENCH_SIZES="100:1000,1000:10000" (nodes:pods; default that), BENCH_RATE pods/s (default 200).
// Results: bench/results-pod-lifecycle.json. A benchmark, not a test: nothing here fails on a figure.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CoreV1Api, KubeConfig, Watch } from "@kubernetes/client-node";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const sizes = (process.env.BENCH_SIZES ?? "100:1000,1000:10000").split(",").map((s) => s.split(":").map(Number));
const rate = Number(process.env.BENCH_RATE ?? 200);
const clockTicks = 100; // USER_HZ

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** The kubelet child of up.mjs `pid`, by its command line. */
function kubeletPid(upPid) {
  for (const d of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === upPid && readFileSync(`/proc/${d}/cmdline`, "utf8").includes("kubelet.js")) return Number(d);
    } catch {
      // a process that just went away
    }
  }
  return undefined;
}

function usage(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const cpuMs = ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks;
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return { cpuMs, rssKiB: rss };
}

/** Starts up.mjs with `nodes` Nodes; resolves when the kubelet has registered them. */
async function up(nodes) {
  const dir = mkdtempSync(path.join(tmpdir(), "servicenet-bench-kubelet-"));
  const child = spawn(process.execPath, [path.join(root, "scripts/up.mjs"), "--port", "0", "--nodes", String(nodes)], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const t = Date.now();
  while (!/kubelet started/.test(out) || !/Caches are synced.*endpointslice/.test(out)) {
    if (child.exitCode !== null) throw new Error(`up.mjs exited:\n${out}`);
    if (Date.now() - t > 600_000) throw new Error(`not up in 10 min:\n${out}`);
    await sleep(100);
  }
  const kc = new KubeConfig();
  kc.loadFromFile(path.join(dir, ".servicenet", "kubeconfig"));
  return {
    kc,
    pid: kubeletPid(child.pid),
    upMs: Date.now() - t,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

async function run(nodes, pods) {
  const c = await up(nodes);
  await sleep(2000);
  const base = usage(c.pid);
  const core = c.kc.makeApiClient(CoreV1Api);
  await core.createNamespacedService({
    namespace: "default",
    body: { metadata: { name: "bench" }, spec: { selector: { app: "bench" }, ports: [{ port: 80 }] } },
  });
  const created = new Map();
  const ready = new Map();
  const inSlice = new Map();
  const w = new Watch(c.kc);
  const podWatch = await w.watch(
    "/api/v1/namespaces/default/pods",
    { labelSelector: "app=bench" },
    (type, p) => {
      const n = p.metadata.name;
      if (!ready.has(n) && p.status?.conditions?.some((x) => x.type === "Ready" && x.status === "True")) ready.set(n, Date.now());
    },
    () => {},
  );
  const sliceWatch = await w.watch(
    "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices",
    { labelSelector: "kubernetes.io/service-name=bench" },
    (type, s) => {
      for (const e of s.endpoints ?? []) {
        const n = e.targetRef?.name;
        if (n && e.conditions?.ready && !inSlice.has(n)) inSlice.set(n, Date.now());
      }
    },
    () => {},
  );
  const t0 = Date.now();
  const inflight = new Set();
  for (let i = 0; i < pods; i++) {
    const name = `bench-${i}`;
    const due = t0 + (i * 1000) / rate;
    if (due > Date.now()) await sleep(due - Date.now());
    created.set(name, Date.now());
    const p = core.createNamespacedPod({
      namespace: "default",
      body: { metadata: { name, labels: { app: "bench" } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
    });
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
    if (inflight.size > 64) await Promise.race(inflight);
  }
  await Promise.all(inflight);
  const deadline = Date.now() + 600_000;
  while (inSlice.size < pods && Date.now() < deadline) await sleep(200);
  const end = usage(c.pid);
  podWatch.abort();
  sliceWatch.abort();
  const lat = (m) => [...m].map(([n, t]) => t - (created.get(n) ?? t));
  const r = {
    nodes,
    pods,
    ratePerS: rate,
    upS: Math.round(c.upMs / 100) / 10,
    readyP50ms: pct(lat(ready), 50),
    readyP99ms: pct(lat(ready), 99),
    endpointP50ms: pct(lat(inSlice), 50),
    endpointP99ms: pct(lat(inSlice), 99),
    inSlice: inSlice.size,
    kubeletCpuMsPerPod: Math.round(((end.cpuMs - base.cpuMs) / pods) * 100) / 100,
    kubeletRssMiB: Math.round(base.rssKiB / 1024),
  };
  await c.stop();
  return r;
}

const results = [];
const baseline = await up(1);
await sleep(2000);
const rss1 = usage(baseline.pid).rssKiB;
await baseline.stop();
for (const [nodes, pods] of sizes) {
  const r = await run(nodes, pods);
  r.kubeletKiBPerNode = Math.round(((r.kubeletRssMiB * 1024 - rss1) / nodes) * 10) / 10;
  console.log(`kubelet pod lifecycle: ${JSON.stringify(r)}`);
  results.push(r);
}
writeFileSync(
  path.join(here, "results-pod-lifecycle.json"),
  JSON.stringify(
    {
      env: { date: new Date().toISOString() },
      results,
      targets: [
        {
          name: "create -> endpoint p99 at 10,000 Pods",
          goal: "<= 1000 ms",
          value: results.find((r) => r.pods >= 10_000)?.endpointP99ms ?? "not run",
        },
        { name: "kubelet memory per simulated Node", goal: "<= 50 KiB", value: results.at(-1)?.kubeletKiBPerNode },
      ],
    },
    null,
    2,
  ) + "\n",
);
