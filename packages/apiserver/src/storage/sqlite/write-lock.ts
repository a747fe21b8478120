/**
 * Waiting for SQLite's write lock without stopping the event loop. better-sqlite3 is synchronous, so
 * with `busy_timeout` a `BEGIN IMMEDIATE` that finds another process writing sleeps inside SQLite's
 * busy handler (1, 2, 5, 10 ms ...) and the whole apiserver stalls: no request is read, no response
 * written. Several apiservers on one file (`servicenet up --workers`, a skewed pair) then mostly wait
 * for each other. Here the write transaction is tried with `busy_timeout = 0`; SQLITE_BUSY puts the
 * batch back and the engine retries from the event loop (setImmediate first, then 1 ms timers),
 * giving up with the same SQLITE_BUSY after `timeoutMs`, as the busy handler would.
 */
import type Database from "better-sqlite3";

/** Retries of a busy write lock from setImmediate before falling back to 1 ms timers. */
const immediateRetries = 3;

/** True for the error better-sqlite3 throws when another connection holds the write lock. */
export function isBusy(e: unknown): boolean {
  return (e as { code?: string } | null)?.code === "SQLITE_BUSY";
}

export class WriteLock {
  readonly #noWait: Database.Statement;
  readonly #wait: Database.Statement;
  readonly #timeoutMs: number;
  #busySince = 0;
  #retries = 0;
  /** How many times a write found the lock taken (for tests and metrics). */
  contended = 0;

  constructor(db: Database.Database, timeoutMs: number) {
    this.#noWait = db.prepare("PRAGMA busy_timeout = 0");
    this.#wait = db.prepare(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(timeoutMs))}`);
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Runs `fn` (which begins the write transaction) failing fast on a taken lock. Returns
   * `{ busy: true }` when the caller should retry later; throws SQLITE_BUSY once `timeoutMs` has
   * passed since the first failed attempt; any other error propagates.
   */
  tryWrite<T>(fn: () => T): { busy: false; value: T } | { busy: true } {
    this.#noWait.get();
    try {
      const value = fn();
      this.#busySince = 0;
      this.#retries = 0;
      return { busy: false, value };
    } catch (e) {
      if (!isBusy(e)) throw e;
      this.contended++;
      const now = performance.now();
      if (this.#busySince === 0) this.#busySince = now;
      else if (now - this.#busySince >= this.#timeoutMs) {
        this.#busySince = 0;
        this.#retries = 0;
        throw e;
      }
      return { busy: true };
    } finally {
      this.#wait.get();
    }
  }

  /** Schedules the next attempt: a few setImmediate turns, then 1 ms timers so the other writer gets the CPU. */
  scheduleRetry(retry: () => void): void {
    this.#retries++;
    if (this.#retries <= immediateRetries) setImmediate(retry);
    else setTimeout(retry, 1);
  }
}
