/**
 * The work queue of client-go's util/workqueue (queue.go, delaying_queue.go,
 * rate_limiting_queue.go): a key is queued at most once, a key being
 * processed is never handed to a second worker, and a key re-added while it
 * is processed is queued again only when the worker calls done().
 */
import { realClock, type Clock, type TimerHandle } from "./clock.ts";
import { defaultControllerRateLimiter, type RateLimiter } from "./rate-limiter.ts";

/** What get() resolves to: the next item, or shutdown once the queue is shut down and drained. */
export type QueueItem<T> = { readonly item: T; readonly shutdown: false } | { readonly item?: undefined; readonly shutdown: true };

/** A deduplicating FIFO with processing tracking (`workqueue.Typed`). */
export class WorkQueue<T> {
  readonly #queue: T[] = [];
  readonly #dirty = new Set<T>();
  readonly #processing = new Set<T>();
  readonly #waiters: ((v: QueueItem<T>) => void)[] = [];
  #shuttingDown = false;

  /** Marks `item` as needing processing; no-op if it is already queued or after shutDown. */
  add(item: T): void {
    if (this.#shuttingDown || this.#dirty.has(item)) return;
    this.#dirty.add(item);
    // Processing items are re-queued by done(), so one key never runs twice at once.
    if (this.#processing.has(item)) return;
    this.#queue.push(item);
    this.#wake();
  }

  /** Waits for the next item; the caller must call done(item) when finished. */
  get(): Promise<QueueItem<T>> {
    const next = this.#take();
    if (next !== undefined) return Promise.resolve(next);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Ends processing of `item`; re-queues it if it was added meanwhile. */
  done(item: T): void {
    this.#processing.delete(item);
    if (this.#dirty.has(item)) {
      this.#queue.push(item);
      this.#wake();
    }
  }

  /** Stops accepting items; waiting workers get shutdown once the queue is drained. */
  shutDown(): void {
    this.#shuttingDown = true;
    this.#wake();
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** Number of queued (not processing) items. */
  get length(): number {
    return this.#queue.length;
  }

  /** True while `item` is handed out and not yet done. */
  isProcessing(item: T): boolean {
    return this.#processing.has(item);
  }

  #take(): QueueItem<T> | undefined {
    const item = this.#queue.shift();
    if (item === undefined) return this.#shuttingDown ? { shutdown: true } : undefined;
    this.#processing.add(item);
    this.#dirty.delete(item);
    return { item, shutdown: false };
  }

  #wake(): void {
    while (this.#waiters.length > 0) {
      const next = this.#take();
      if (next === undefined) return;
      this.#waiters.shift()!(next);
    }
  }
}

/** Options of a RateLimitingQueue. */
export interface RateLimitingQueueOptions<T> {
  clock?: Clock;
  rateLimiter?: RateLimiter<T>;
}

/**
 * WorkQueue plus addAfter (delaying queue) and addRateLimited/forget
 * (`TypedRateLimitingInterface`). Of several pending delays for one item the
 * earliest wins, as in delaying_queue.go.
 */
export class RateLimitingQueue<T> extends WorkQueue<T> {
  readonly #clock: Clock;
  readonly #limiter: RateLimiter<T>;
  readonly #waiting = new Map<T, { at: number; timer: TimerHandle }>();

  constructor(options: RateLimitingQueueOptions<T> = {}) {
    super();
    this.#clock = options.clock ?? realClock;
    this.#limiter = options.rateLimiter ?? defaultControllerRateLimiter<T>(this.#clock);
  }

  /** Adds `item` after `delayMs` (immediately if <= 0). */
  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    const at = this.#clock.now() + delayMs;
    const prev = this.#waiting.get(item);
    if (prev !== undefined) {
      if (prev.at <= at) return;
      this.#clock.clearTimeout(prev.timer);
    }
    const timer = this.#clock.setTimeout(() => {
      this.#waiting.delete(item);
      this.add(item);
    }, delayMs);
    this.#waiting.set(item, { at, timer });
  }

  /** Adds `item` after the rate limiter's delay; counts one more failure. */
  addRateLimited(item: T): void {
    this.addAfter(item, this.#limiter.when(item));
  }

  /** Clears the failure history of `item`. */
  forget(item: T): void {
    this.#limiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.#limiter.numRequeues(item);
  }

  override shutDown(): void {
    for (const w of this.#waiting.values()) this.#clock.clearTimeout(w.timer);
    this.#waiting.clear();
    super.shutDown();
  }
}
