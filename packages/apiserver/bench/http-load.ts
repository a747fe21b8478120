/**
 * The HTTP load generator of the apiserver benchmarks: POSTs Service bodies from a worker thread
 * (this file), so the client's own HTTP work does not compete with the server for the main
 * thread (a real client is another process).
 */
import { Agent, request } from "node:http";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

export interface ClientJob {
  url: string;
  concurrency: number;
  total: number;
  warmup: number;
  /** Spec of every Service (ports are added). */
  spec: Record<string, unknown>;
  /** Name prefix (default `svc`), so that several loads can fill one server. */
  prefix?: string;
  /** Stamp each body with its send time (epoch ms) in this annotation, for watch delivery latency. */
  sentAnnotation?: string;
  /** Extra request headers (an Authorization bearer token). */
  headers?: Record<string, string>;
}

export interface LoadResult {
  seconds: number;
  latencies: number[];
}

const body = (i: number | string, spec: Record<string, unknown>, prefix = "svc", sentAnnotation?: string): string =>
  JSON.stringify({
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name: `${prefix}-${i}`,
      labels: { app: `${prefix}-${i}`, tier: "backend" },
      ...(sentAnnotation ? { annotations: { [sentAnnotation]: String(performance.timeOrigin + performance.now()) } } : {}),
    },
    spec: { ...spec, selector: { app: `${prefix}-${i}` }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
  });

/** One POST over `agent`; resolves with the status after the whole response was read. */
function post(agent: Agent, url: string, payload: string, extra: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { ...extra, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) };
    const req = request(url, { method: "POST", agent, headers }, (res) => {
      res.on("data", () => {});
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** `concurrency` loops POSTing until `total` creates are done (after `warmup` unmeasured ones). */
async function client({ url, concurrency, total, warmup, spec, prefix, sentAnnotation, headers }: ClientJob): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  // Warm up sockets, statements and the JIT (names not reused by the measured creates).
  for (let i = 0; i < warmup; i++) await post(agent, url, body(`w${i}`, spec, prefix), headers);
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        const status = await post(agent, url, body(i, spec, prefix, sentAnnotation), headers);
        if (status !== 201) throw new Error(`create ${prefix ?? "svc"}-${i}: HTTP ${status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { seconds, latencies };
}

/** Runs the client in a worker thread. */
export function load(job: Omit<ClientJob, "warmup"> & { warmup?: number }): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { warmup: 300, ...job } satisfies ClientJob });
    w.once("message", (m: LoadResult) => resolve(m));
    w.once("error", reject);
    // A client that ended without its result (it cannot have: resolve already ran then) must not hang the bench.
    w.once("exit", (code) => reject(new Error(`load client exited (code ${code}) without a result`)));
  });
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

if (!isMainThread && (workerData as ClientJob | undefined)?.url) parentPort!.postMessage(await client(workerData as ClientJob));
