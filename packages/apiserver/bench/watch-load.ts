/**
 * The watchers of the scale benchmark, in a worker thread (a real client is another process):
 * `watchers` WATCH connections on one Service collection from `resourceVersion`, each counting the
 * ADDED events whose object carries the send-time annotation, and the delay from that send time to
 * the moment the event's line arrived. A watcher whose stream ends before `expect` events is dropped.
 */
import { Agent, request } from "node:http";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

export interface WatchJob {
  /** The collection URL (`.../namespaces/default/services`). */
  url: string;
  resourceVersion: string;
  watchers: number;
  /** Events each watcher must see before it closes. */
  expect: number;
  annotation: string;
}

export interface WatchResult {
  /** Delivery delays (ms) over every watcher and event, sorted. */
  delays: number[];
  dropped: number;
  /** Events that never arrived, over every watcher. */
  missing: number;
}

function watchOne(agent: Agent, job: WatchJob, delays: number[], onOpen: () => void): Promise<{ seen: number; dropped: boolean }> {
  const stamp = new RegExp(`"${job.annotation.replace(/[./]/g, "\\$&")}":"([\\d.]+)"`);
  return new Promise((resolve) => {
    let seen = 0;
    let buffered = "";
    const req = request(`${job.url}?watch=1&resourceVersion=${job.resourceVersion}`, { agent }, (res) => {
      onOpen();
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        const now = performance.timeOrigin + performance.now();
        buffered += chunk;
        let nl: number;
        while ((nl = buffered.indexOf("\n")) >= 0) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          // A regex instead of JSON.parse: 500 watchers parsing every event would measure the client.
          const m = line.startsWith('{"type":"ADDED"') ? stamp.exec(line) : null;
          if (!m) continue;
          delays.push(now - Number(m[1]));
          if (++seen === job.expect) {
            req.destroy();
            resolve({ seen, dropped: false });
          }
        }
      });
      res.on("end", () => resolve({ seen, dropped: seen < job.expect }));
      res.on("error", () => resolve({ seen, dropped: seen < job.expect }));
    });
    req.on("error", () => resolve({ seen, dropped: seen < job.expect }));
    req.end();
  });
}

async function watchAll(job: WatchJob): Promise<WatchResult> {
  const agent = new Agent({ keepAlive: false, maxSockets: job.watchers });
  const delays: number[] = [];
  let open = 0;
  // Ready once every watch has its response headers: the server registered it.
  const onOpen = () => ++open === job.watchers && parentPort!.postMessage({ ready: true });
  const results = await Promise.all(Array.from({ length: job.watchers }, () => watchOne(agent, job, delays, onOpen)));
  delays.sort((a, b) => a - b);
  return {
    delays,
    dropped: results.filter((r) => r.dropped).length,
    missing: results.reduce((n, r) => n + (job.expect - r.seen), 0),
  };
}

/** Starts the watchers; `ready` resolves once their requests are out, `done` with the result. */
export function watchLoad(job: WatchJob): { ready: Promise<void>; done: Promise<WatchResult> } {
  const w = new Worker(new URL(import.meta.url), { workerData: job });
  let onReady!: () => void;
  const ready = new Promise<void>((r) => (onReady = r));
  const done = new Promise<WatchResult>((resolve, reject) => {
    w.on("message", (m: WatchResult | { ready: true }) => ("ready" in m ? onReady() : resolve(m)));
    w.once("error", reject);
  });
  return { ready, done };
}

if (!isMainThread && (workerData as WatchJob | undefined)?.watchers) parentPort!.postMessage(await watchAll(workerData as WatchJob));
