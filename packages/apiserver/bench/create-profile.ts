/**
 * Where a Service create's CPU goes, by stage: reads V8 `.cpuprofile` files of servers that ran
 * `service-up-wrk.bench.ts`'s load, keeps the samples of the load (from the first to the last HTTP
 * request parse), and charges each sample to the stage of its innermost frame that belongs to one
 * (JSON.parse charged to the codec that called it, a socket write to the response writer), then
 * prints µs per create and share per stage, and the functions with the most self time.
 *
 * Run (from packages/apiserver, after the build), e.g. IPAddress-only, the default and the floor:
 *   BENCH_MODES=ipaddress,dual-write,floor BENCH_WORKERS=1 BENCH_SECONDS=10 \
 *     BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" \
 *     node --import ./src/storage/testdata/register-ts.mjs bench/service-up-wrk.bench.ts
 *   node --import ./src/storage/testdata/register-ts.mjs bench/create-profile.ts /tmp/prof/CPU.*.PID.0.*.cpuprofile CREATES
 * where CREATES is that server's creates/s times BENCH_SECONDS (the bench prints creates/s).
 * The profiler itself slows the server (more so at a high load average): compare stages within
 * one run, not with the bench's unprofiled CPU per create.
 */
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * The stages, in the order a create passes them; a frame belongs to the first whose pattern its
 * `functionName url` matches. Runtime frames (node:*, native, most of node_modules) match none, so
 * their time goes to the project frame that called them.
 */
export const stages: ReadonlyArray<readonly [stage: string, pattern: RegExp]> = [
  ["GC", /^\(garbage collector\)/],
  ["authn/authz", /\/(filters\/(authentication|impersonation|authorization)|plugin\/pkg\/auth|authentication|authorizer)[/.]/],
  ["APF / max-in-flight", /\/(filters\/(flow-control|apf-dispatch|maxinflight)|util\/flowcontrol)[/.]/],
  ["audit / request log", /\/(filters\/(audit|audit-init|request-log)|audit)[/.]/],
  ["JSON decode", /\/server\/(codec|go-decode|json-duplicates|json-literal)\.|\/meta\/v1\/decode\./],
  ["zod / defaulting", /node_modules\/zod\/|\/api\/dist\/.*(defaults|schema)/],
  ["validation", /\/validation\//],
  ["admission", /\/(server\/admission|admission)[/.]/],
  ["managed fields", /\/server\/patch\//],
  ["allocators (bitmap, IPAddress objects)", /\/(ipallocator|portallocator|allocator|service\/storage\/alloc[^/]*)[/.]/],
  ["watch fan-out / informers", /\/(storage\/(kv-watch|kv-fan-out|watch-stream)|server\/watch|util\/informer)|client\/dist\/tools\//],
  ["storage (SQLite)", /\/apiserver\/dist\/storage\/|better-sqlite3|^(commitRows|flush) .*floor-server\.ts/],
  ["encode / response", /\/server\/(encoded-cache|go-order|go-structs|present|framing|response-compression|http|negotiation)[/.]/],
  ["strategy / generic store / REST", /\/registry\/|\/server\/(rest|rest-storage)\.|\/api\/dist\//],
  ["routing / handler chain", /\/server\//],
  // The floor's one handler: its JSON.parse, object building and JSON.stringify.
  ["floor handler (parse, build, stringify)", /floor-server\.ts/],
  ["other project code", /\/packages\//],
];

/** Runtime frames with no project frame above them: HTTP/TLS parsing and socket work, or the rest. */
const transport = /node:(_http|_tls|tls|net|https|internal\/(stream|http|tls|net|js_stream))/;

/** The stage of a stack (leaf first), by its innermost frame that has one. */
export function stageOf(stack: readonly CallFrame[]): string {
  for (const f of stack) {
    const key = `${f.functionName} ${f.url}`;
    for (const [stage, pattern] of stages) if (pattern.test(key)) return stage;
  }
  return stack.some((f) => transport.test(f.url)) ? "TLS / HTTP parse and write" : "runtime (microtasks, timers, other)";
}

/** Per-stage and per-function self time (µs) of the samples between the first and last request parse. */
export function breakdown(profile: Profile): { total: number; byStage: Map<string, number>; byFunction: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stacks = new Map<number, CallFrame[]>();
  const stackOf = (id: number): CallFrame[] => {
    let s = stacks.get(id);
    if (!s) {
      s = [];
      for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) s.push(byId.get(x)!.callFrame);
      stacks.set(id, s);
    }
    return s;
  };
  const isRequest = (id: number): boolean => stackOf(id).some((f) => f.functionName === "parserOnHeadersComplete");
  const first = profile.samples.findIndex(isRequest);
  const last = profile.samples.findLastIndex(isRequest);
  const byStage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (let i = Math.max(first, 0); i <= last; i++) {
    const stack = stackOf(profile.samples[i]!);
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (stack[0]!.functionName === "(idle)") continue;
    total += dt;
    const stage = stageOf(stack);
    byStage.set(stage, (byStage.get(stage) ?? 0) + dt);
    const f = stack[0]!;
    const fn = `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\/(packages|node_modules)\//, "$1/")}:${f.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + dt);
  }
  return { total, byStage, byFunction };
}

function main(): void {
  const [file, createsArg] = process.argv.slice(2);
  if (!file || !createsArg) throw new Error("usage: create-profile.ts FILE.cpuprofile CREATES");
  const creates = Number(createsArg);
  const { total, byStage, byFunction } = breakdown(JSON.parse(readFileSync(file, "utf8")) as Profile);
  const row = (name: string, us: number): string => `| ${name} | ${(us / creates).toFixed(1)} | ${((100 * us) / total).toFixed(1)} % |`;
  console.log(`${file}: ${(total / 1000).toFixed(0)} ms CPU in the load, ${creates} creates\n`);
  console.log("| stage | µs per create | share |\n| --- | ---: | ---: |");
  for (const [stage, us] of [...byStage].sort((a, b) => b[1] - a[1])) console.log(row(stage, us));
  console.log(row("**total**", total));
  console.log("\nself time, top 30:\n| function | µs per create | share |\n| --- | ---: | ---: |");
  for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(row(`\`${fn}\``, us));
}

main();
