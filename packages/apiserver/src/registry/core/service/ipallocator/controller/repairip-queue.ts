/**
 * A rate-limited work queue (client-go workqueue.TypedRateLimitingInterface with
 * DefaultTypedControllerRateLimiter's per-item exponential part): a key is queued at most once,
 * a key being processed is re-queued when it was added meanwhile, AddAfter dedups delayed adds,
 * and AddRateLimited waits 5 ms·2^n (capped at 1000 s) after the n-th failure.
 */
import type { Clock, TimerHandle } from "./repairip-clock.ts";

const baseDelayMs = 5;
const maxDelayMs = 1000 * 1000;

export class RateLimitingQueue {
  readonly name: string;
  readonly #clock: Clock;
  readonly #queue: string[] = [];
  readonly #dirty = new Set<string>();
  readonly #processing = new Set<string>();
  readonly #failures = new Map<string, number>();
  readonly #waiting = new Map<string, { due: number; handle: TimerHandle }>();
  readonly #getters: ((key: string | undefined) => void)[] = [];
  #shutDown = false;

  constructor(name: string, clock: Clock) {
    this.name = name;
    this.#clock = clock;
  }

  /** Queues `key` unless it is already queued; a key being processed is queued again after done(). */
  add(key: string): void {
    if (this.#shutDown || this.#dirty.has(key)) return;
    this.#dirty.add(key);
    if (this.#processing.has(key)) return;
    const getter = this.#getters.shift();
    if (getter) {
      this.#dirty.delete(key);
      this.#processing.add(key);
      getter(key);
    } else this.#queue.push(key);
  }

  /** Queues `key` after `ms`; an earlier pending delay for the same key wins. */
  addAfter(key: string, ms: number): void {
    if (this.#shutDown) return;
    if (ms <= 0) return this.add(key);
    const due = this.#clock.now() + ms;
    const w = this.#waiting.get(key);
    if (w && w.due <= due) return;
    if (w) this.#clock.clearTimeout(w.handle);
    const handle = this.#clock.setTimeout(() => {
      this.#waiting.delete(key);
      this.add(key);
    }, ms);
    this.#waiting.set(key, { due, handle });
  }

  /** Queues `key` after its exponential backoff and counts the failure. */
  addRateLimited(key: string): void {
    const n = this.#failures.get(key) ?? 0;
    this.#failures.set(key, n + 1);
    this.addAfter(key, Math.min(maxDelayMs, baseDelayMs * 2 ** n));
  }

  /** Failures counted for `key` since the last forget(). */
  numRequeues(key: string): number {
    return this.#failures.get(key) ?? 0;
  }

  forget(key: string): void {
    this.#failures.delete(key);
  }

  /** The next key (marked processing), or undefined once the queue is shut down. */
  get(): Promise<string | undefined> {
    if (this.#shutDown) return Promise.resolve(undefined);
    const key = this.#queue.shift();
    if (key !== undefined) {
      this.#dirty.delete(key);
      this.#processing.add(key);
      return Promise.resolve(key);
    }
    return new Promise((resolve) => this.#getters.push(resolve));
  }

  /** Ends processing of `key`; re-queues it if it was added while processing. */
  done(key: string): void {
    this.#processing.delete(key);
    if (this.#dirty.has(key)) {
      this.#dirty.delete(key);
      this.add(key);
    }
  }

  /** Number of queued (not processing, not waiting) keys. */
  len(): number {
    return this.#queue.length;
  }

  /** Stops the queue: pending delays are dropped and waiting get() calls resolve undefined. */
  shutDown(): void {
    this.#shutDown = true;
    for (const w of this.#waiting.values()) this.#clock.clearTimeout(w.handle);
    this.#waiting.clear();
    for (const g of this.#getters.splice(0)) g(undefined);
  }
}
