/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the COMMIT that
 * crosses `wal_autocheckpoint`, on the writer's thread: it copies every WAL page into the database
 * file and fsyncs both, and better-sqlite3 being synchronous, the apiserver answers nothing meanwhile.
 * Under a steady stream of creates that is a stall of tens of milliseconds every second or two
 * (measured: p99 of Service creates in bitmap mode, whose 43 kB RangeAllocation rows fill the WAL
 * fastest, 50-58 ms with it and 26-27 ms without it). SQLite's documentation suggests running
 * checkpoints from a separate thread for this (wal.html, "Application-Initiated Checkpoints").
 *
 * Here a worker thread with its own connection does it: it watches the size of the WAL file and,
 * past `thresholdBytes`, checkpoints PASSIVE (readers and writers go on: the bulk of the copy), again
 * PASSIVE for what was written during the pass before until a pass copies under 256 pages (at most
 * 5 passes), then TRUNCATE for the pages written meanwhile. TRUNCATE takes the write lock for that short tail
 * (the engine's writes wait it out from the event loop, write-lock.ts), lets the next writer start
 * the WAL over (a PASSIVE checkpoint racing a busy writer never does), and empties the file, so its
 * size is again what the next checkpoint has to copy. The worker starts once the engine has
 * committed `startAfterCommits` transactions (most stores never write enough to need it). The main
 * connection keeps an automatic checkpoint at a much larger size as a backstop, should the worker
 * fall behind or fail.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * The worker: one connection; every `pollMs` it reads the WAL file's size and checkpoints past the
 * threshold. A failed checkpoint (SQLITE_BUSY past the timeout: a long read elsewhere) is retried
 * at the next poll.
 */
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const { statSync } = require("node:fs");
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma("busy_timeout = " + workerData.busyTimeoutMs);
db.pragma("synchronous = NORMAL");
const wal = workerData.path + "-wal";
function walSize() {
  try { return statSync(wal).size; } catch { return 0; }
}
// PASSIVE passes until one copies little (what was written during the pass before), so that the
// TRUNCATE, which holds the write lock, has only a short tail left.
function checkpoint() {
  try {
    let passive = db.pragma("wal_checkpoint(PASSIVE)")[0];
    for (let pass = 1; pass < workerData.maxPassivePasses; pass++) {
      const next = db.pragma("wal_checkpoint(PASSIVE)")[0];
      const copied = next.checkpointed - passive.checkpointed;
      passive = next;
      if (copied < workerData.tailFrames) break;
    }
    const truncate = db.pragma("wal_checkpoint(TRUNCATE)")[0];
    return { ok: true, passive, truncate };
  } catch (e) {
    return { ok: false, error: String((e && e.message) || e) };
  }
}
const timer = setInterval(() => {
  if (walSize() >= workerData.thresholdBytes) parentPort.postMessage(checkpoint());
}, workerData.pollMs);
parentPort.on("message", (m) => {
  if (m === "checkpoint") return parentPort.postMessage(checkpoint());
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** One checkpoint's outcome as SQLite reports it (`busy`, WAL frames `log`, frames `checkpointed`). */
export interface CheckpointResult {
  ok: boolean;
  passive?: { busy: number; log: number; checkpointed: number };
  truncate?: { busy: number; log: number; checkpointed: number };
  error?: string;
}

export interface CheckpointerOptions {
  /** The database file (the WAL is `<path>-wal`). */
  path: string;
  /** WAL file size at which the worker checkpoints. */
  thresholdBytes: number;
  /** How often the worker looks at the WAL file's size. */
  pollMs: number;
  /** Commits of this engine before the worker is started. */
  startAfterCommits: number;
  /** How long the TRUNCATE step waits for the write lock or for readers before giving up until the next poll. */
  busyTimeoutMs: number;
  /** Called with every checkpoint's outcome (tests, logs). */
  onCheckpoint?: (r: CheckpointResult) => void;
}

/** Runs the WAL checkpoints of one database file in a worker thread (see the file comment). */
export class Checkpointer {
  readonly #opts: CheckpointerOptions;
  #worker: Worker | null = null;
  #commits = 0;
  #closed = false;
  /** The worker failed (it could not open the file): the backstop checkpoints from now on. */
  #failed = false;

  constructor(opts: CheckpointerOptions) {
    this.#opts = opts;
  }

  /** Counts a commit; the worker starts at the `startAfterCommits`-th. */
  committed(): void {
    if (this.#worker !== null || this.#closed || this.#failed) return;
    if (++this.#commits >= this.#opts.startAfterCommits) this.#start();
  }

  /** Checkpoints now, starting the worker if need be; resolves with the outcome (tests). */
  checkpointNow(): Promise<CheckpointResult> {
    if (this.#closed) return Promise.resolve({ ok: false, error: "checkpointer closed" });
    const w = this.#start();
    return new Promise((resolve) => {
      w.once("message", (r: CheckpointResult) => resolve(r));
      w.postMessage("checkpoint");
    });
  }

  /** Stops the worker after the checkpoint in progress, closing its connection. */
  async close(): Promise<void> {
    this.#closed = true;
    const w = this.#worker;
    if (w === null) return;
    this.#worker = null;
    const exited = new Promise<void>((resolve) => w.once("exit", () => resolve()));
    // Referenced again while it closes: otherwise a process with nothing else to do exits before the
    // exit event, leaving this close() (and the caller's await) unsettled (node's exit code 13).
    w.ref();
    w.postMessage("close");
    await exited;
  }

  #start(): Worker {
    if (this.#worker !== null) return this.#worker;
    const { path, thresholdBytes, pollMs, busyTimeoutMs } = this.#opts;
    const module = createRequire(import.meta.url).resolve("better-sqlite3");
    const w = new Worker(workerSource, {
      eval: true,
      workerData: { module, path, thresholdBytes, pollMs, busyTimeoutMs, maxPassivePasses: 5, tailFrames: 256 },
    });
    // A server shutting down must not wait for it; close() ends it in order.
    w.unref();
    w.on("message", (r: CheckpointResult) => this.#opts.onCheckpoint?.(r));
    w.on("error", (e: Error) => {
      this.#failed = true;
      this.#opts.onCheckpoint?.({ ok: false, error: e.message });
    });
    w.on("exit", () => {
      if (this.#worker === w) this.#worker = null;
    });
    this.#worker = w;
    return w;
  }
}
