/**
 * The consumer side of a watch: an async iterator over a buffer that the engine fills. Ends on
 * abort, on `return()` (break out of for-await), after an ERROR event, or when the consumer falls
 * too far behind (upstream's cacher likewise drops watchers that cannot keep up; clients re-watch
 * from their last resourceVersion).
 */
import type { WatchEvent } from "./interfaces.ts";

export class WatchStream implements AsyncIterableIterator<WatchEvent> {
  private readonly buffer: WatchEvent[] = [];
  private waiter: ((r: IteratorResult<WatchEvent>) => void) | null = null;
  private ended = false;
  private readonly cleanups: (() => void)[] = [];
  private readonly maxBuffered: number;

  constructor(opts: { signal?: AbortSignal; maxBuffered?: number } = {}) {
    this.maxBuffered = opts.maxBuffered ?? 100_000;
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
    if (this.waiter) {
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
