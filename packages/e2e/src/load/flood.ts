/**
 * The flood suite's parts: the users' token file, the RBAC that gives the flooder `edit` in one
 * namespace, an event-loop probe preloaded into the apiserver process, request bodies that never
 * finish, and the looping clients (the flooder's LISTs, the admin's timed requests, the
 * controller's updates).
 */
import { Agent, request, type RequestOptions } from "node:https";
import type { ClientRequest } from "node:http";
import { getJSON, type RawClient } from "../fuzz/raw-client.ts";

/** The three users: admin (system:masters, exempt), a controller and the low-privilege flooder. */
export const floodTokens = { admin: "flood-admin-token", controller: "flood-controller-token", flooder: "flood-flooder-token" } as const;

/** The controller's user: matched by upstream's `kube-controller-manager` FlowSchema (workload-high). */
export const controllerUser = "system:kube-controller-manager";

/** kube-apiserver's token CSV for the three users (admin first: child-apiserver.ts reads it as the token). */
export function floodTokenFile(): string {
  return (
    `${floodTokens.admin},admin,admin,"system:masters"\n` +
    `${floodTokens.controller},${controllerUser},kcm-uid\n` +
    `${floodTokens.flooder},flooder,flooder-uid\n`
  );
}

/** A RoleBinding of the `edit` ClusterRole to `user` in `namespace`. */
export function editBinding(namespace: string, user: string): string {
  return JSON.stringify({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    metadata: { name: `edit-${user.replaceAll(":", "-")}`, namespace },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "edit" },
    subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: user }],
  });
}

/**
 * Fills the `edit` ClusterRole's rules from the roles it aggregates (system:aggregate-to-edit and,
 * through `view`, system:aggregate-to-view), as the controller-manager's clusterrole-aggregation
 * controller would: only the apiserver runs here.
 */
export async function aggregateEdit(admin: RawClient): Promise<void> {
  const base = "/apis/rbac.authorization.k8s.io/v1/clusterroles";
  const rules = [];
  for (const name of ["system:aggregate-to-edit", "system:aggregate-to-view"])
    rules.push(...(await getJSON<{ rules: unknown[] }>(admin, `${base}/${name}`)).rules);
  const r = await admin.send({
    method: "PATCH",
    path: `${base}/edit`,
    headers: { "Content-Type": "application/merge-patch+json" },
    body: JSON.stringify({ rules }),
  });
  if (r.status !== 200) throw new Error(`aggregate edit: ${r.status} ${r.body.toString("utf8").slice(0, 200)}`);
}

/** Percentiles (milliseconds) of what the probe measured. */
export interface ProbeFigures {
  p50: number;
  p99: number;
  max: number;
}

/**
 * A `--import` for the apiserver process: perf_hooks' event-loop delay histogram, written to stderr
 * as one `eventloop {json}` line (milliseconds; `at`: when, in microseconds of the monotonic clock
 * `--cpu-prof` profiles use, so the flood's window can be cut out of one) and reset on SIGUSR2. With `timedAuth` (an
 * Authorization header value) it also times, inside the server, each request carrying it from its
 * `request` event (headers parsed) to its response's `finish` (the last byte handed to the
 * socket), written as one `timed {json}` line: the server's view of that client's latency.
 */
export function eventLoopProbeArgs(timedAuth?: string): string[] {
  const code = [
    'import { monitorEventLoopDelay } from "node:perf_hooks";',
    'import { Server } from "node:https";',
    "const h = monitorEventLoopDelay({ resolution: 10 }); h.enable();",
    `const auth = ${JSON.stringify(timedAuth ?? null)};`,
    "let timed = [];",
    "if (auth !== null) {",
    "  const emit = Server.prototype.emit;",
    "  Server.prototype.emit = function (ev, req, res) {",
    '    if (ev === "request" && req.headers.authorization === auth) {',
    "      const t = performance.now();",
    '      res.once("finish", () => timed.push(performance.now() - t));',
    "    }",
    "    return emit.apply(this, arguments);",
    "  };",
    "}",
    "const r2 = (x) => Math.round(x * 100) / 100;",
    "const pct = (xs, q) => xs[Math.min(xs.length - 1, Math.max(0, Math.ceil((q / 100) * xs.length) - 1))];",
    'process.on("SIGUSR2", () => {',
    "  const ms = (ns) => Math.round(ns / 1e4) / 100;",
    '  process.stderr.write("eventloop " + JSON.stringify({ p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), at: Number(process.hrtime.bigint() / 1000n) }) + "\\n");',
    "  h.reset();",
    "  if (auth === null) return;",
    "  const s = timed.sort((a, b) => a - b);",
    "  timed = [];",
    '  process.stderr.write("timed " + JSON.stringify({ n: s.length, p50: r2(pct(s, 50)), p99: r2(pct(s, 99)), max: r2(s.at(-1)) }) + "\\n");',
    "});",
  ].join("\n");
  return [`--import=data:text/javascript,${encodeURIComponent(code)}`];
}

/** The event-loop figures the probe printed last in `output`. */
export function lastEventLoop(output: string): ProbeFigures | undefined {
  return lastProbeLine(output, "eventloop");
}

/** The server-side timings of the `timedAuth` requests the probe printed last in `output`. */
export function lastTimed(output: string): (ProbeFigures & { n: number }) | undefined {
  return lastProbeLine(output, "timed");
}

function lastProbeLine<T>(output: string, prefix: string): T | undefined {
  const last = [...output.matchAll(new RegExp(`^${prefix} (\\{.*\\})$`, "gm"))].at(-1);
  return last ? (JSON.parse(last[1]!) as T) : undefined;
}

/** Request bodies that never finish: POSTs that promise 1,000 bytes and send 12. */
export interface StalledBodies {
  /** Status codes answered so far (the stalled ones never answer until closed). */
  codes: Map<number, number>;
  close(): void;
}

/** Opens `n` stalled creates of Services in `namespace` as `token`, `perBatch` at a time. */
export async function openStalledBodies(
  url: string,
  ca: string,
  token: string,
  namespace: string,
  n: number,
  perBatch = 100,
): Promise<StalledBodies> {
  const u = new URL(url);
  const agent = new Agent({ keepAlive: false, maxSockets: n, ca });
  const codes = new Map<number, number>();
  const reqs: ClientRequest[] = [];
  const opts: RequestOptions = {
    host: u.hostname,
    port: u.port,
    method: "POST",
    path: `/api/v1/namespaces/${namespace}/services`,
    agent,
    ca,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Length": "1000" },
  };
  for (let i = 0; i < n; i += perBatch) {
    const batch = Array.from({ length: Math.min(perBatch, n - i) }, () => {
      const req = request(opts, (res) => {
        codes.set(res.statusCode ?? 0, (codes.get(res.statusCode ?? 0) ?? 0) + 1);
        res.resume();
      });
      req.on("error", () => {});
      reqs.push(req);
      return new Promise<void>((resolve) => {
        req.once("socket", (s) => s.once("secureConnect", () => resolve()));
        req.write('{"metadata":');
      });
    });
    await Promise.all(batch);
  }
  return {
    codes,
    close: () => {
      for (const r of reqs) r.destroy();
      agent.destroy();
    },
  };
}

/** Status code counts and latencies of a loop of requests. */
export interface LoopStats {
  codes: Map<number, number>;
  latencies: number[];
  errors: string[];
  /** Each request's method and path, latency and start (ms since the loop began), in order. */
  requests: { what: string; ms: number; at: number }[];
  /** When the loop began (performance.now()). */
  began: number;
}

/** Runs `step` in `workers` loops until `stop()` is true. */
export async function loop(workers: number, stop: () => boolean, step: (stats: LoopStats) => Promise<void>): Promise<LoopStats> {
  const stats: LoopStats = { codes: new Map(), latencies: [], errors: [], requests: [], began: performance.now() };
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!stop()) {
        try {
          await step(stats);
        } catch (e) {
          if (stats.errors.length < 5) stats.errors.push(String(e).slice(0, 300));
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    }),
  );
  return stats;
}

/** Sends one request and counts its code and latency in `stats`; returns the response. */
export async function timed(
  client: RawClient,
  stats: LoopStats,
  r: Parameters<RawClient["send"]>[0],
): Promise<Awaited<ReturnType<RawClient["send"]>>> {
  const started = performance.now();
  const res = await client.send(r);
  const ms = performance.now() - started;
  stats.latencies.push(ms);
  stats.requests.push({ what: `${r.method} ${r.path}`, ms, at: started - stats.began });
  stats.codes.set(res.status, (stats.codes.get(res.status) ?? 0) + 1);
  return res;
}

/** The `n` slowest of `stats`' requests as text: `POST /x 120 ms at 3.2 s`. */
export function slowestText(stats: LoopStats, n: number): string {
  return [...stats.requests]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map((q) => `${q.what} ${q.ms.toFixed(0)} ms at ${(q.at / 1000).toFixed(1)} s`)
    .join("; ");
}

/** `{200: 10, 429: 3}` as text. */
export function codesText(codes: ReadonlyMap<number, number>): string {
  return [...codes.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([c, n]) => `${c}: ${n}`)
    .join(", ");
}
