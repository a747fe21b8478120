/**
 * Service creates/s through the real CLI: `servicenet up` (built dist, HTTPS, bearer token, SQLite)
 * with 1 and 2 `--workers`, driven by wrk (Debian package `wrk`, C, one thread, 16 keep-alive
 * connections) so that the client costs little of a 2-core machine's CPU. Every POST is a new
 * SingleStack Service in 10.0.0.0/14, i.e. one ClusterIP allocation (as when the performance issue
 * was filed, so that its figures compare), and then, in the rows marked RequireDualStack, a
 * RequireDualStack Service in 10.0.0.0/14,fd00:10::/108 (two allocations). Modes: ipaddress
 * (MultiCIDRServiceAllocator, DisableAllocatorDualWrite), dual-write (the 1.33 default), bitmap.
 * Any non-201 answer fails the run. Beside creates/s it reports the server's CPU per create (all
 * its processes and threads, from /proc), which varies less than creates/s on a shared machine.
 * Last, the same load against `floor-server.ts` (1 and 2 processes): a bare HTTPS server that writes
 * the same rows per create (two; three for RequireDualStack) into the same SQLite table with nothing of Kubernetes, i.e. the most
 * any Service create path in Node can reach here. Writes bench/results-service-up-wrk.json.
 * Run: `npm run bench -w @servicenet/apiserver` (skipped with a message without wrk or the build).
 * With etcd (SERVICENET_ETCD_ENDPOINTS, default http://127.0.0.1:23790) the ipaddress and dual-write
 * modes run once more on etcd, against an etcd floor (floor-server.ts with FLOOR_ETCD), each server
 * under a key root of its own. Last, the ratios the performance issue sets targets for.
 * For a short comparison of a few modes: `BENCH_MODES=ipaddress,dual-write,floor,etcd BENCH_WORKERS=1
 * BENCH_SECONDS=5 node --import ./src/storage/testdata/register-ts.mjs bench/service-up-wrk.bench.ts`
 * (BENCH_SERVER_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, goes to the servers' node).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Etcd3 } from "etcd3";
import { processTreeTicks, ticksPerSecond } from "./proc-cpu.ts";
import { atLeast, atMost, printTargets, type Target } from "./targets.ts";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const entry = join(here, "../dist/cmd/servicenet-up.js");
const floorEntry = join(here, "floor-server.ts");
const registerTS = join(here, "../src/storage/testdata/register-ts.mjs");
const seconds = Number(process.env["BENCH_SECONDS"] ?? 8);
/** Comma-separated filters (default: all): modes plus "floor", and worker/process counts. */
const only = (name: string): ((v: string) => boolean) => {
  const want = process.env[name]?.split(",").filter(Boolean);
  return (v) => !want || want.includes(v);
};
const wantMode = only("BENCH_MODES");
const wantWorkers = only("BENCH_WORKERS");
const serverNodeArgs = (process.env["BENCH_SERVER_NODE_ARGS"] ?? "").split(" ").filter(Boolean);
const gates = {
  ipaddress: "DisableAllocatorDualWrite=true",
  "dual-write": "DisableAllocatorDualWrite=false",
  bitmap: "MultiCIDRServiceAllocator=false",
} as const;

const lua = (token: string, dualStack: boolean): string => `
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer ${token}"
local counter = 0
function request()
  counter = counter + 1
  local name = "svc-" .. counter
  local body = '{"apiVersion":"v1","kind":"Service","metadata":{"name":"' .. name .. '","labels":{"app":"' .. name .. '","tier":"backend"}},"spec":{${dualStack ? `"ipFamilyPolicy":"RequireDualStack",` : ""}"selector":{"app":"' .. name .. '"},"ports":[{"name":"http","port":80,"targetPort":8080}]}}'
  return wrk.format(nil, nil, nil, body)
end
local bad = 0
function response(status) if status ~= 201 then bad = bad + 1 end end
function done() io.write("NON201 " .. bad .. "\\n") end
`;

interface Figure {
  createsPerSecond: number;
  p50ms: number;
  p99ms: number;
  /** CPU time of the server's processes (user + system, every thread) per create. */
  cpuUsPerCreate: number;
}

/** Drives `url` with wrk for `seconds` (the Lua script above), measuring `pid`'s CPU meanwhile. */
function load(dir: string, pid: number, url: string, token: string, dualStack: boolean): Figure {
  writeFileSync(join(dir, "post.lua"), lua(token, dualStack));
  const t0 = processTreeTicks(pid);
  const r = spawnSync(
    "wrk",
    ["-t1", "-c16", `-d${seconds}s`, "--latency", "-s", join(dir, "post.lua"), `${url}/api/v1/namespaces/default/services`],
    { encoding: "utf8" },
  );
  const ticks = processTreeTicks(pid) - t0;
  const out = r.stdout;
  const bad = Number(/NON201 (\d+)/.exec(out)?.[1] ?? NaN);
  if (bad !== 0) throw new Error(`wrk saw ${bad} non-201 answers:\n${out}${r.stderr}`);
  const createsPerSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]);
  return {
    createsPerSecond: Math.round(createsPerSecond),
    p50ms: ms(percentile(out, "50%", r.stderr)),
    p99ms: ms(percentile(out, "99%", r.stderr)),
    cpuUsPerCreate: Math.round((ticks / ticksPerSecond / (createsPerSecond * seconds)) * 1e6),
  };
}

/** Starts `args` in a fresh directory, waits for `ready` on its stdout, runs `fn`, stops it with SIGINT. */
async function withServer<T>(
  args: string[],
  ready: RegExp,
  fn: (dir: string, pid: number, url: string) => T,
  env: Record<string, string> = {},
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-up-bench-"));
  const child = spawn(process.execPath, [...serverNodeArgs, ...args.map((a) => a.replace("$DIR", dir))], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
        const m = ready.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}: ${out}`)));
    });
    return fn(dir, child.pid!, url);
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGINT");
    });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The `--latency` figure of percentile `p` in wrk's output; a run that printed none fails with what wrk said. */
function percentile(out: string, p: string, stderr: string): string {
  // Anchored: the thread-stats lines end in percentages too ("... 95.50%" then "Req/Sec").
  const m = new RegExp(`^\\s*${p}\\s+(\\S+)`, "m").exec(out);
  if (!m) throw new Error(`wrk printed no ${p} latency:\n${out}${stderr}`);
  return m[1]!;
}

/** wrk's latency figures (`812.00us`, `7.14ms`, `1.20s`, `2.00m`) in ms. */
function ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!m) throw new Error(`wrk printed a latency this bench cannot read: ${JSON.stringify(text)}`);
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as "us" | "ms" | "s" | "m"];
  return Number(m[1]) * scale;
}

/** etcd for the etcd rows (skipped when it does not answer). */
const etcdEndpoint = process.env["SERVICENET_ETCD_ENDPOINTS"] ?? "http://127.0.0.1:23790";

/** The Service CIDRs of the runs: one IPv4 range, and an IPv6 one for the RequireDualStack rows. */
const ranges = { single: "10.0.0.0/14", dual: "10.0.0.0/14,fd00:10::/108" };

function run(mode: keyof typeof gates, workers: number, etcd = false, dualStack = false): Promise<Figure> {
  const args = [
    entry,
    "--port",
    "0",
    "--workers",
    String(workers),
    "--service-cluster-ip-range",
    dualStack ? ranges.dual : ranges.single,
    "--feature-gates",
    gates[mode],
    // A fresh key root per run: the runs share the one etcd.
    ...(etcd ? ["--datastore-endpoint", etcdEndpoint, "--etcd-prefix", etcdRoot()] : []),
  ];
  return withServer(args, /apiserver (https:\/\/\S+)[^]*try:/, (dir, pid, url) => {
    // The kubeconfig's user is the admin's client certificate; the admin token (system:masters) is tokens.csv's first line.
    const token = readFileSync(join(dir, ".servicenet/tokens.csv"), "utf8").split(",")[0]!;
    return load(dir, pid, url, token, dualStack);
  });
}

function runFloor(processes: number, etcd = false, dualStack = false): Promise<Figure> {
  return withServer(
    ["--import", registerTS, floorEntry, "$DIR", String(processes)],
    /floor-server (https:\/\/\S+)/,
    (dir, pid, url) => load(dir, pid, url, "none", dualStack),
    { ...(etcd ? { FLOOR_ETCD: etcdEndpoint, FLOOR_ETCD_PREFIX: etcdRoot() } : {}), ...(dualStack ? { FLOOR_IP_FAMILIES: "2" } : {}) },
  );
}

/** Key roots the etcd runs wrote under, deleted at the end. */
const etcdRoots: string[] = [];
function etcdRoot(): string {
  const root = `/servicenet-bench-${process.pid}-${etcdRoots.length}`;
  etcdRoots.push(root);
  return root;
}

async function dropEtcdRoots(): Promise<void> {
  if (etcdRoots.length === 0) return;
  const client = new Etcd3({ hosts: etcdEndpoint.split(",") });
  try {
    for (const root of etcdRoots) await client.delete().prefix(`${root}/`);
  } finally {
    client.close();
  }
}

/** True when etcd answers its health endpoint. */
async function etcdUp(): Promise<boolean> {
  try {
    return (await fetch(`${etcdEndpoint.split(",")[0]}/health`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/** The ratios the performance issue sets targets for, of the figures this run measured. */
function printRatios(f: Record<string, Figure>): void {
  const pairs: [string, string, string][] = [
    ["dual-write / ipaddress (sqlite, 1 worker; target >= 0.9)", "dual-write 1", "ipaddress 1"],
    ["ipaddress / floor (sqlite, 1 worker; target >= 0.5)", "ipaddress 1", "floor 1"],
    ["dual-write / floor (sqlite, 1 worker; target >= 0.5)", "dual-write 1", "floor 1"],
    ["bitmap / floor (sqlite, 1 worker; target >= 0.5)", "bitmap 1", "floor 1"],
    ["etcd ipaddress / etcd floor (1 worker; target >= 0.5)", "etcd ipaddress 1", "etcd floor 1"],
    ["etcd dual-write / etcd floor (1 worker; target >= 0.5)", "etcd dual-write 1", "etcd floor 1"],
  ];
  for (const [label, a, b] of pairs) {
    const x = f[a];
    const y = f[b];
    if (!x || !y) continue;
    const cpu = (x.cpuUsPerCreate / y.cpuUsPerCreate).toFixed(2);
    console.log(`ratio ${label.padEnd(60)} creates/s ${(x.createsPerSecond / y.createsPerSecond).toFixed(2)}  cpu/create ${cpu}x`);
  }
}

/**
 * The performance issue's table (wrk -t1 -c16, one worker, SQLite), as measured when it was filed
 * (main at 1dbc778, 8 s per row), beside this run's figures: the "then" columns are that record,
 * not measured here.
 */
type Recorded = Pick<Figure, "createsPerSecond" | "p99ms" | "cpuUsPerCreate"> & { ratio: number };
const issueBaseline: [label: string, key: string, then: Recorded][] = [
  ["default gates (IPAddress + dual-write)", "dual-write 1", { createsPerSecond: 822, p99ms: 152, cpuUsPerCreate: 1226, ratio: 0.15 }],
  ["IPAddress only", "ipaddress 1", { createsPerSecond: 1709, p99ms: 63, cpuUsPerCreate: 646, ratio: 0.3 }],
  ["bitmap only", "bitmap 1", { createsPerSecond: 1659, p99ms: 133, cpuUsPerCreate: 597, ratio: 0.3 }],
  ["floor", "floor 1", { createsPerSecond: 5617, p99ms: 52, cpuUsPerCreate: 149, ratio: 1 }],
];

/** One row of the issue's table in the results file: the server, its recorded figures and this run's. */
export interface IssueRow {
  server: string;
  then: Recorded;
  now: Recorded;
}

/** Prints the issue's table, then and now; returns its rows and this run's ratios to the floor as result rows. */
function issueTable(f: Record<string, Figure>): {
  rows: Array<{ name: string; metric: string; value: number; unit: string }>;
  table: IssueRow[];
} {
  const floor = f["floor 1"];
  const table: IssueRow[] = [];
  if (!floor) return { rows: [], table };
  const rows: Array<{ name: string; metric: string; value: number; unit: string }> = [];
  console.log("\nthe performance issue's table: then (1dbc778, when filed) -> now (this run)");
  console.log(
    `${"server".padEnd(40)} ${"creates/s".padStart(16)} ${"p99 ms".padStart(16)} ${"CPU us/create".padStart(16)} ${"ratio to floor".padStart(16)}`,
  );
  const pair = (a: number, b: number, d = 0): string => `${a.toFixed(d)} -> ${b.toFixed(d)}`.padStart(16);
  for (const [label, key, then] of issueBaseline) {
    const now = f[key];
    if (!now) continue;
    const ratio = now.createsPerSecond / floor.createsPerSecond;
    table.push({
      server: label,
      then,
      now: {
        createsPerSecond: now.createsPerSecond,
        p99ms: now.p99ms,
        cpuUsPerCreate: now.cpuUsPerCreate,
        ratio: Number(ratio.toFixed(2)),
      },
    });
    console.log(
      `${label.padEnd(40)} ${pair(then.createsPerSecond, now.createsPerSecond)} ${pair(then.p99ms, now.p99ms)} ${pair(then.cpuUsPerCreate, now.cpuUsPerCreate)} ${pair(then.ratio, ratio, 2)}`,
    );
    if (key === "floor 1") continue;
    const name = `service create vs floor (sqlite, ${key.replace(/ 1$/, "")}, 1 worker, wrk c16)`;
    rows.push(
      { name, metric: "creates/s ratio to floor", value: Number(ratio.toFixed(2)), unit: "" },
      { name, metric: "CPU per create ratio to floor", value: Number((now.cpuUsPerCreate / floor.cpuUsPerCreate).toFixed(2)), unit: "x" },
    );
  }
  return { rows, table };
}

/** The issue's targets for creates, from this run's figures (those it measured). */
function issueTargets(f: Record<string, Figure>): Target[] {
  const targets: Target[] = [];
  const floor = f["floor 1"];
  // SingleStack rows against the two-row floor, then RequireDualStack rows against the three-row one.
  const stacks = [
    { label: "", key: "1", floor },
    { label: ", RequireDualStack", key: "ds 1", floor: f["floor ds 1"] },
  ];
  for (const stack of stacks) {
    for (const mode of ["dual-write", "ipaddress", "bitmap"] as const) {
      const m = f[`${mode} ${stack.key}`];
      if (!m) continue;
      if (stack.floor)
        targets.push(
          atLeast(`sqlite ${mode}${stack.label}: creates/s >= 0.5 of the floor's`, m.createsPerSecond / stack.floor.createsPerSecond, 0.5),
        );
      targets.push(atMost(`sqlite ${mode}${stack.label}: p99 <= 50 ms at c16`, m.p99ms, 50, " ms"));
    }
  }
  const dual = f["dual-write 1"];
  const ip = f["ipaddress 1"];
  if (dual && ip)
    targets.push(atLeast("default (dual-write): creates/s >= 0.9 of IPAddress-only", dual.createsPerSecond / ip.createsPerSecond, 0.9));
  if (ip && floor)
    targets.push(atMost("IPAddress-only: server CPU per create <= 2x the floor's", ip.cpuUsPerCreate / floor.cpuUsPerCreate, 2, "x"));
  const etcdFloor = f["etcd floor 1"];
  for (const mode of ["ipaddress", "dual-write"] as const) {
    const m = f[`etcd ${mode} 1`];
    if (m && etcdFloor)
      targets.push(atLeast(`etcd ${mode}: creates/s >= 0.5 of the etcd floor's`, m.createsPerSecond / etcdFloor.createsPerSecond, 0.5));
  }
  return targets;
}

async function main(): Promise<void> {
  if (!existsSync(entry)) return console.log(`service-up-wrk bench: ${entry} is missing (run the build), skipping`);
  if (spawnSync("wrk", ["--version"]).error)
    return console.log("service-up-wrk bench: wrk is not installed (apt-get install wrk), skipping");
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const results: Array<{ name: string; metric: string; value: number; unit: string }> = [];
  const figures: Record<string, Figure> = {};
  const record = (name: string, f: Figure): void => {
    console.log(
      `${name.padEnd(92)} ${String(f.createsPerSecond).padStart(6)}/s  p50 ${f.p50ms.toFixed(2)} ms  p99 ${f.p99ms.toFixed(2)} ms  cpu ${f.cpuUsPerCreate} us/create`,
    );
    results.push(
      { name, metric: "creates/s", value: f.createsPerSecond, unit: "1/s" },
      { name, metric: "p50", value: f.p50ms, unit: "ms" },
      { name, metric: "p99", value: f.p99ms, unit: "ms" },
      { name, metric: "server cpu", value: f.cpuUsPerCreate, unit: "us/create" },
    );
  };
  for (const mode of (Object.keys(gates) as (keyof typeof gates)[]).filter(wantMode)) {
    for (const workers of [1, 2].filter((w) => wantWorkers(String(w))))
      record(
        `service create (servicenet up, HTTPS + token, sqlite, ${mode}, ${workers} worker${workers > 1 ? "s" : ""}, wrk c16)`,
        (figures[`${mode} ${workers}`] = await run(mode, workers)),
      );
  }
  for (const processes of [1, 2].filter((p) => wantMode("floor") && wantWorkers(String(p))))
    record(
      `floor: bare HTTPS + 2 SQLite rows per create, no Kubernetes (floor-server.ts, ${processes} process${processes > 1 ? "es" : ""}, wrk c16)`,
      (figures[`floor ${processes}`] = await runFloor(processes)),
    );
  // The issue's targets are for RequireDualStack creates: two ClusterIPs each (IPAddress mode: three
  // objects), against a floor that writes the same three rows.
  if (wantMode("dualstack")) {
    for (const mode of Object.keys(gates) as (keyof typeof gates)[])
      record(
        `service create (servicenet up, HTTPS + token, sqlite, ${mode}, RequireDualStack, 1 worker, wrk c16)`,
        (figures[`${mode} ds 1`] = await run(mode, 1, false, true)),
      );
    record(
      "floor: bare HTTPS + 3 SQLite rows per RequireDualStack create, no Kubernetes (floor-server.ts FLOOR_IP_FAMILIES=2, 1 process, wrk c16)",
      (figures["floor ds 1"] = await runFloor(1, false, true)),
    );
  }
  // etcd: the allocator modes on the etcd backend against the etcd floor (two create Txns per Service).
  if (wantMode("etcd") && (await etcdUp())) {
    for (const mode of ["ipaddress", "dual-write"] as const)
      record(
        `service create (servicenet up, HTTPS + token, etcd, ${mode}, 1 worker, wrk c16)`,
        (figures[`etcd ${mode} 1`] = await run(mode, 1, true)),
      );
    record(
      "etcd floor: bare HTTPS + 2 etcd create Txns per create, no Kubernetes (floor-server.ts FLOOR_ETCD, 1 process, wrk c16)",
      (figures["etcd floor 1"] = await runFloor(1, true)),
    );
    await dropEtcdRoots();
  } else if (wantMode("etcd")) console.log(`service-up-wrk bench: etcd at ${etcdEndpoint} does not answer, etcd rows skipped`);
  printRatios(figures);
  const issue = issueTable(figures);
  results.push(...issue.rows);
  const targets = issueTargets(figures);
  printTargets(targets);
  const filtered = ["BENCH_MODES", "BENCH_WORKERS"].some((v) => process.env[v]);
  if (filtered) return console.log("filtered run (BENCH_MODES/BENCH_WORKERS): results file left as it is");
  const out = join(here, "results-service-up-wrk.json");
  const env = {
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? "",
    loadavg1m: loadavg()[0],
    seconds,
    date: new Date().toISOString(),
  };
  writeFileSync(out, JSON.stringify({ env, results, issueTable: { baseline: "1dbc778", rows: issue.table }, targets }, null, 2) + "\n");
  console.log(`wrote ${out}`);
}

await main();
