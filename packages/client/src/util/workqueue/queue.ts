/**
 * The work queue of client-go's util/workqueue/queue.go (`workqueue.Typed`): a key is queued at
 * most once, a key being processed is never handed to a second worker, and a key re-added while
 * it is processed is queued again only when the worker calls done(). ShutDown lets workers drain
 * what is queued; get() reports shutdown (undefined) only once the queue is empty.
 */
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { QueueMetrics, type MetricsProvider } from "./metrics.ts";

/**
 * upstream `Queue[T]` (queue.go): the order of the queued items. `touch` is called when an item
 * already queued (and not processing) is added again, so an ordered queue may re-rank it.
 */
export interface Queue<T> {
  touch(item: T): void;
  push(item: T): void;
  len(): number;
  /** The next item; only called when len() > 0. */
  pop(): T;
}

/** upstream `DefaultQueue`: the slice-based FIFO. */
export function defaultQueue<T>(): Queue<T> {
  const items: T[] = [];
  return { touch: () => undefined, push: (i) => void items.push(i), len: () => items.length, pop: () => items.shift() as T };
}

/** upstream `TypedQueueConfig`: metrics are kept only for a named queue given a provider. */
export interface QueueConfig<T = unknown> {
  metricsProvider?: MetricsProvider;
  clock?: Clock;
  /** The underlying queue (`TypedQueueConfig.Queue`); default the FIFO. */
  queue?: Queue<T>;
}

/** A deduplicating FIFO with processing tracking. `T` must not include undefined (get()'s shutdown value). */
export class WorkQueue<T = string> {
  /** The queue's name (client-go's QueueConfig.Name, for logs and metrics). */
  readonly name: string;
  readonly #queue: Queue<T>;
  readonly #dirty = new Set<T>();
  readonly #processing = new Set<T>();
  readonly #waiters: ((v: T | undefined) => void)[] = [];
  #shuttingDown = false;
  /** Undefined for an unnamed queue or one without a provider (upstream's noMetrics). */
  protected readonly metrics: QueueMetrics<T> | undefined;

  constructor(name = "", config: QueueConfig<T> = {}) {
    this.name = name;
    this.#queue = config.queue ?? defaultQueue<T>();
    if (name !== "" && config.metricsProvider !== undefined)
      this.metrics = new QueueMetrics<T>(name, config.metricsProvider, config.clock ?? realClock);
  }

  /** Marks `item` as needing processing; no-op if it is already queued or after shutDown. */
  add(item: T): void {
    if (this.#shuttingDown) return;
    if (this.#dirty.has(item)) {
      // Added again before it is processed: an ordered queue may re-rank it.
      if (!this.#processing.has(item)) this.#queue.touch(item);
      return;
    }
    this.metrics?.add(item);
    this.#dirty.add(item);
    // Processing items are re-queued by done(), so one key never runs twice at once.
    if (this.#processing.has(item)) return;
    this.#queue.push(item);
    this.#wake();
  }

  /**
   * Waits for the next item, which the caller must pass to done() when finished; undefined once
   * the queue is shut down and drained (client-go's `shutdown == true`).
   */
  get(): Promise<T | undefined> {
    if (this.#queue.len() > 0 || this.#shuttingDown) return Promise.resolve(this.#take());
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Ends processing of `item`; re-queues it if it was added meanwhile. */
  done(item: T): void {
    this.metrics?.done(item);
    this.#processing.delete(item);
    if (this.#dirty.has(item)) {
      this.#queue.push(item);
      this.#wake();
    }
  }

  /** Stops accepting items; waiting workers get undefined once the queue is drained. */
  shutDown(): void {
    this.#shuttingDown = true;
    this.#wake();
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** Number of queued (not processing) items (`Len`). */
  len(): number {
    return this.#queue.len();
  }

  /** True while `item` is handed out and not yet done. */
  isProcessing(item: T): boolean {
    return this.#processing.has(item);
  }

  #take(): T | undefined {
    if (this.#queue.len() === 0) return undefined;
    const item = this.#queue.pop();
    this.metrics?.get(item);
    this.#processing.add(item);
    this.#dirty.delete(item);
    return item;
  }

  #wake(): void {
    while (this.#waiters.length > 0 && (this.#queue.len() > 0 || this.#shuttingDown)) {
      this.#waiters.shift()!(this.#take());
    }
  }
}
