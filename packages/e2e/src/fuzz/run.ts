/**
 * Runs a seeded fuzz campaign against a child apiserver: discovery walk, seeds, snapshot, then
 * `count` generated requests with bounded concurrency in batches, /healthz (and the process) checked
 * after every batch, and the snapshot compared at the end.
 */
import { generateCase, type FuzzCase } from "./cases.ts";
import { checkAnswer, isWatchError } from "./check.ts";
import type { ChildApiServer } from "./child-apiserver.ts";
import { diffSnapshots, discover, snapshot, type Discovered } from "./discovery-walk.ts";
import { rawClient, type RawClient } from "./raw-client.ts";
import { createSeeds } from "./seeds.ts";

export interface FuzzOptions {
  seed: number;
  count: number;
  concurrency?: number;
  batch?: number;
  /** Stop starting batches after this long (the report says how many requests ran). */
  deadlineMs?: number;
}

export interface FuzzReport {
  requests: number;
  ms: number;
  /** HTTP status → count (0: the connection failed). */
  byStatus: Record<string, number>;
  /** Flaw name → count (what made each write fail). */
  byFlaw: Record<string, number>;
  watchErrorsInStream: number;
  /** Requests sent again after a reset on a reused keep-alive socket. */
  retries: number;
  /**
   * Connections the server reset under a request it refused before reading its whole body (a
   * write never happens then; the health check after the batch proves the server lives). Counted,
   * not a violation, and printed.
   */
  connectionResets: number;
  /** Requests whose answer broke a rule, with the reason. */
  violations: string[];
  healthChecks: number;
  endpoints: number;
  nonResourcePaths: number;
  seedsRefused: string[];
  snapshotDiff: string[];
  objects: number;
  rssKiB: { before: number; after: number };
}

function describeCase(c: FuzzCase): string {
  const body = c.body === undefined ? "" : ` body(${Buffer.byteLength(c.body)}B)=${JSON.stringify(c.body.toString().slice(0, 120))}`;
  return `${c.label}: ${c.method} ${c.path.slice(0, 200)}${body}`;
}

async function healthy(client: RawClient, server: ChildApiServer): Promise<string | undefined> {
  if (server.exited() !== undefined) return `apiserver exited (${String(server.exited())}):\n${server.output().slice(-3000)}`;
  try {
    const r = await client.send({ method: "GET", path: "/healthz" });
    return r.status === 200 && r.body.toString() === "ok" ? undefined : `/healthz answered ${r.status} ${r.body.toString().slice(0, 100)}`;
  } catch (e) {
    return `/healthz failed: ${String(e)}`;
  }
}

/** Prepares the server (seeds) and returns discovery; call once per server. */
export async function prepare(server: ChildApiServer): Promise<{ discovered: Discovered; seedsRefused: string[] }> {
  const client = rawClient(server.url, server.ca, server.token, { maxSockets: 2 });
  try {
    const seedsRefused = await createSeeds(client);
    return { discovered: await discover(client), seedsRefused };
  } finally {
    client.close();
  }
}

/** Runs the campaign; never throws for bad answers (they are in `violations`). */
export async function runFuzz(server: ChildApiServer, discovered: Discovered, o: FuzzOptions): Promise<FuzzReport> {
  const concurrency = o.concurrency ?? 4;
  const batch = o.batch ?? 100;
  const client = rawClient(server.url, server.ca, server.token, { maxSockets: concurrency + 1, timeoutMs: 15_000 });
  const report: FuzzReport = {
    requests: 0,
    ms: 0,
    byStatus: {},
    byFlaw: {},
    watchErrorsInStream: 0,
    retries: 0,
    connectionResets: 0,
    violations: [],
    healthChecks: 0,
    endpoints: discovered.resources.length,
    nonResourcePaths: discovered.nonResource.length,
    seedsRefused: [],
    snapshotDiff: [],
    objects: 0,
    rssKiB: { before: server.rssKiB(), after: 0 },
  };
  const started = performance.now();
  // FUZZ_TRACE=1 prints every request with its answer and time (for finding what hangs).
  const trace = process.env["FUZZ_TRACE"] === "1";
  try {
    const before = await snapshot(client, discovered.resources);
    report.objects = before.size;
    for (let start = 0; start < o.count && !(o.deadlineMs !== undefined && performance.now() - started > o.deadlineMs); start += batch) {
      let next = start;
      const end = Math.min(o.count, start + batch);
      const worker = async (): Promise<void> => {
        while (next < end) {
          const c = generateCase(o.seed, next++, discovered);
          let status = 0;
          const t0 = performance.now();
          try {
            const r = await client.send(c);
            if (trace)
              process.stderr.write(
                `fuzz #${next - 1} ${r.status} ${Math.round(performance.now() - t0)}ms ${describeCase(c).slice(0, 300)}\n`,
              );
            status = r.status;
            if (isWatchError(c, r)) report.watchErrorsInStream++;
            for (const v of checkAnswer(c, r)) report.violations.push(`${v} <- ${describeCase(c)}`);
          } catch (e) {
            const code = (e as NodeJS.ErrnoException).code;
            if ((code === "ECONNRESET" || code === "EPIPE") && c.body !== undefined) report.connectionResets++;
            else report.violations.push(`request failed: ${String(e)} <- ${describeCase(c)}`);
          }
          report.requests++;
          report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
          if (c.flaw) report.byFlaw[c.flaw] = (report.byFlaw[c.flaw] ?? 0) + 1;
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      report.healthChecks++;
      const sick = await healthy(client, server);
      if (sick) {
        report.violations.push(`after request ${end}: ${sick}`);
        break;
      }
    }
    if (server.exited() === undefined) report.snapshotDiff = diffSnapshots(before, await snapshot(client, discovered.resources));
  } finally {
    report.retries = client.retries();
    client.close();
  }
  report.ms = Math.round(performance.now() - started);
  report.rssKiB.after = server.exited() === undefined ? server.rssKiB() : 0;
  return report;
}

/** One summary line plus the per-status counts, for the suite's console output. */
export function summarize(name: string, r: FuzzReport): string {
  const codes = Object.entries(r.byStatus)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([k, v]) => `${k}:${v}`)
    .join(" ");
  return `${name}: ${r.requests} requests in ${r.ms} ms over ${r.endpoints} resource endpoints + ${r.nonResourcePaths} non-resource paths; status ${codes}; watch ERROR-in-stream ${r.watchErrorsInStream}; ${r.retries} keep-alive retries; ${r.connectionResets} connection resets; ${r.healthChecks} health checks; ${r.objects} objects unchanged=${r.snapshotDiff.length === 0}; apiserver RSS ${Math.round(r.rssKiB.before / 1024)} -> ${Math.round(r.rssKiB.after / 1024)} MiB; violations ${r.violations.length}`;
}
