/**
 * Service creates/s through the real CLI: `servicenet up` (built dist, HTTPS, bearer token, SQLite)
 * with 1 and 2 `--workers`, driven by wrk (Debian package `wrk`, C, one thread, 16 keep-alive
 * connections) so that the client costs little of a 2-core machine's CPU. Every POST is a new
 * SingleStack Service in 10.0.0.0/14, i.e. one ClusterIP allocation. Modes: ipaddress
 * (MultiCIDRServiceAllocator, DisableAllocatorDualWrite), dual-write (the 1.33 default), bitmap.
 * Any non-201 answer fails the run. Beside creates/s it reports the server's CPU per create (all
 * its processes and threads, from /proc), which varies less than creates/s on a shared machine.
 * Last, the same load against `floor-server.ts` (1 and 2 processes): a bare HTTPS server that writes
 * the same two rows per create into the same SQLite table with nothing of Kubernetes, i.e. the most
 * any Service create path in Node can reach here. Writes bench/results-service-up-wrk.json.
 * Run: `npm run bench -w @servicenet/apiserver` (skipped with a message without wrk or the build).
 * For a short comparison of a few modes: `BENCH_MODES=ipaddress,dual-write,floor BENCH_WORKERS=1
 * BENCH_SECONDS=5 node --import ./src/storage/testdata/register-ts.mjs bench/service-up-wrk.bench.ts`
 * (BENCH_SERVER_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, goes to the servers' node).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
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

const lua = (token: string): string => `
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer ${token}"
local counter = 0
function request()
  counter = counter + 1
  local name = "svc-" .. counter
  local body = '{"apiVersion":"v1","kind":"Service","metadata":{"name":"' .. name .. '","labels":{"app":"' .. name .. '","tier":"backend"}},"spec":{"selector":{"app":"' .. name .. '"},"ports":[{"name":"http","port":80,"targetPort":8080}]}}'
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

/** user + system clock ticks of `pid` and its child processes (all threads), or NaN without /proc. */
function cpuTicks(pid: number): number {
  try {
    const own = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    return Number(own[11]) + Number(own[12]) + children.reduce((t, c) => t + cpuTicks(c), 0);
  } catch {
    return NaN;
  }
}

const ticksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** Drives `url` with wrk for `seconds` (the Lua script above), measuring `pid`'s CPU meanwhile. */
function load(dir: string, pid: number, url: string, token: string): Figure {
  writeFileSync(join(dir, "post.lua"), lua(token));
  const t0 = cpuTicks(pid);
  const r = spawnSync(
    "wrk",
    ["-t1", "-c16", `-d${seconds}s`, "--latency", "-s", join(dir, "post.lua"), `${url}/api/v1/namespaces/default/services`],
    { encoding: "utf8" },
  );
  const ticks = cpuTicks(pid) - t0;
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
async function withServer<T>(args: string[], ready: RegExp, fn: (dir: string, pid: number, url: string) => T): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-up-bench-"));
  const child = spawn(process.execPath, [...serverNodeArgs, ...args.map((a) => a.replace("$DIR", dir))], {
    cwd: dir,
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

function run(mode: keyof typeof gates, workers: number): Promise<Figure> {
  const args = [
    entry,
    "--port",
    "0",
    "--workers",
    String(workers),
    "--service-cluster-ip-range",
    "10.0.0.0/14",
    "--feature-gates",
    gates[mode],
  ];
  return withServer(args, /apiserver (https:\/\/\S+)[^]*try:/, (dir, pid, url) => {
    const token = /token: (\S+)/.exec(readFileSync(join(dir, ".servicenet/kubeconfig"), "utf8"))![1]!;
    return load(dir, pid, url, token);
  });
}

function runFloor(processes: number): Promise<Figure> {
  return withServer(["--import", registerTS, floorEntry, "$DIR", String(processes)], /floor-server (https:\/\/\S+)/, (dir, pid, url) =>
    load(dir, pid, url, "none"),
  );
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
        await run(mode, workers),
      );
  }
  for (const processes of [1, 2].filter((p) => wantMode("floor") && wantWorkers(String(p))))
    record(
      `floor: bare HTTPS + 2 SQLite rows per create, no Kubernetes (floor-server.ts, ${processes} process${processes > 1 ? "es" : ""}, wrk c16)`,
      await runFloor(processes),
    );
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
  writeFileSync(out, JSON.stringify({ env, results }, null, 2) + "\n");
  console.log(`wrote ${out}`);
}

await main();
