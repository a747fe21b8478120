/**
 * The consumer side of a watch: an async iterator over a buffer that the engine fills, or, for a
 * consumer that handles events synchronously (the HTTP watch), a listener called as each event is
 * pushed (`consume`). Ends on abort, on `return()` (break out of for-await), after an ERROR event,
 * or when the consumer falls too far behind (upstream's cacher likewise drops watchers that cannot
 * keep up; clients re-watch from their last resourceVersion).
 */
import type { KubeObject, WatchEvent } from "./interfaces.ts";

export interface WatchStreamOptions {
  signal?: AbortSignal;
  maxBuffered?: number;
  /** Read-time decoration of each object pushed (WatchOptions.decorate). */
  decorate?: (obj: KubeObject) => void;
}

export class WatchStream implements AsyncIterableIterator<WatchEvent> {
  private readonly buffer: WatchEvent[] = [];
  private waiter: ((r: IteratorResult<WatchEvent>) => void) | null = null;
  private listener: ((ev: WatchEvent) => void) | null = null;
  private settle: { resolve: () => void; reject: (e: unknown) => void } | null = null;
  private ended = false;
  private readonly cleanups: (() => void)[] = [];
  private readonly maxBuffered: number;
  private readonly decorate: ((obj: KubeObject) => void) | undefined;

  constructor(opts: WatchStreamOptions = {}) {
    this.maxBuffered = opts.maxBuffered ?? 100_000;
    this.decorate = opts.decorate;
    const signal = opts.signal;
    if (signal) {
      if (signal.aborted) this.end();
      const onAbort = (): void => this.end();
      signal.addEventListener("abort", onAbort, { once: true });
      this.onEnd(() => signal.removeEventListener("abort", onAbort));
    }
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Registers cleanup work (cancel the engine watch, stop timers) run once when the stream ends. */
  onEnd(fn: () => void): void {
    if (this.ended) fn();
    else this.cleanups.push(fn);
  }

  push(event: WatchEvent): void {
    if (this.ended) return;
    if (this.decorate && event.type !== "ERROR" && event.type !== "BOOKMARK") this.decorate(event.object);
    if (this.listener) {
      this.deliver(event);
    } else if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w({ value: event, done: false });
    } else if (this.buffer.length >= this.maxBuffered) {
      this.end();
      return;
    } else {
      this.buffer.push(event);
    }
    if (event.type === "ERROR") this.end();
  }

  /** Stops producing; already buffered events are still delivered. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const fn of this.cleanups.splice(0)) fn();
    if (this.waiter && this.buffer.length === 0) {
      const w = this.waiter;
      this.waiter = null;
      w({ value: undefined, done: true });
    }
    this.settle?.resolve();
  }

  /**
   * Hands every event, the buffered ones first, to `listener` as it is pushed, with no promise per
   * event; resolves when the stream ends, rejects (and ends it) if the listener throws. Instead of
   * iterating, never both.
   */
  consume(listener: (ev: WatchEvent) => void): Promise<void> {
    const done = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
      this.listener = listener;
      for (const ev of this.buffer.splice(0)) {
        this.deliver(ev);
        if (this.settle === null) return; // the listener threw: the stream ended with it
      }
      if (this.ended) resolve();
    });
    return done.finally(() => {
      this.listener = null;
      this.settle = null;
    });
  }

  private deliver(ev: WatchEvent): void {
    try {
      this.listener!(ev);
    } catch (e) {
      const s = this.settle;
      this.listener = null;
      this.settle = null;
      this.end();
      s?.reject(e);
    }
  }

  next(): Promise<IteratorResult<WatchEvent>> {
    const head = this.buffer.shift();
    if (head) return Promise.resolve({ value: head, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  return(): Promise<IteratorResult<WatchEvent>> {
    this.buffer.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<WatchEvent> {
    return this;
  }
}
