/**
 * The watchers of the scale benchmark, in a worker thread (a real client is another process):
 * `watchers` WATCH connections on one Service collection from `resourceVersion`, each counting the
 * ADDED events whose object carries the send-time annotation, and the delay from that send time to
 * the moment the event's line arrived. A watcher whose stream ends before `expect` events is dropped.
 */
import { connect } from "node:net";
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

/**
 * One watcher on a raw socket: the client side of 500 watchers must cost less than the server's
 * (node's HTTP client parsed every chunk in JS and decoded it to a string, which on a 2-core
 * machine made the watchers' thread the bottleneck). The response is scanned as bytes for the
 * ADDED events' send-time annotation; the chunk framing between events is skipped over.
 */
function watchOne(job: WatchJob, delays: number[], onOpen: () => void): Promise<{ seen: number; dropped: boolean }> {
  const url = new URL(`${job.url}?watch=1&resourceVersion=${job.resourceVersion}`);
  const added = Buffer.from('{"type":"ADDED"');
  const stamp = Buffer.from(`"${job.annotation}":"`);
  return new Promise((resolve) => {
    let seen = 0;
    let open = false;
    let pending: Buffer = Buffer.alloc(0);
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      sock.destroy();
      resolve({ seen, dropped: seen < job.expect });
    };
    const sock = connect(Number(url.port), url.hostname, () => {
      sock.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: application/json\r\n\r\n`);
    });
    sock.on("data", (chunk: Buffer) => {
      const now = performance.timeOrigin + performance.now();
      const buf = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      let at = 0;
      if (!open) {
        const headEnd = buf.indexOf("\r\n\r\n");
        if (headEnd < 0) return void (pending = buf);
        if (!buf.subarray(0, headEnd).toString("latin1").startsWith("HTTP/1.1 200")) return finish();
        open = true;
        onOpen();
        at = headEnd + 4;
      }
      for (;;) {
        const ev = buf.indexOf(added, at);
        if (ev < 0) break;
        const eol = buf.indexOf(10, ev);
        if (eol < 0) {
          at = ev;
          break;
        }
        const s = buf.indexOf(stamp, ev);
        if (s >= 0 && s < eol) {
          const from = s + stamp.length;
          delays.push(now - Number(buf.toString("latin1", from, buf.indexOf(34, from))));
          if (++seen === job.expect) return finish();
        }
        at = eol + 1;
      }
      // Keep an event still arriving, or a tail that may hold the start of one.
      const rest = buf.subarray(at);
      const next = rest.indexOf(added);
      pending = Buffer.from(next >= 0 ? rest.subarray(next) : rest.subarray(Math.max(0, rest.length - added.length + 1)));
    });
    sock.on("end", finish);
    sock.on("close", finish);
    sock.on("error", finish);
  });
}

async function watchAll(job: WatchJob): Promise<WatchResult> {
  const delays: number[] = [];
  let open = 0;
  // Ready once every watch has its response headers: the server registered it.
  const onOpen = () => ++open === job.watchers && parentPort!.postMessage({ ready: true });
  const results = await Promise.all(Array.from({ length: job.watchers }, () => watchOne(job, delays, onOpen)));
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
