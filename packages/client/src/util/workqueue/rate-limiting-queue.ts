/**
 * WorkQueue plus addAfter (delaying_queue.go) and addRateLimited/forget/numRequeues
 * (rate_limiting_queue.go, `TypedRateLimitingInterface`). Of several pending delays for one item
 * the earliest wins, as in delaying_queue.go; shutDown drops the pending delays.
 */
import { realClock, type Clock, type TimerHandle } from "@servicenet/component-base/clock";
import { defaultControllerRateLimiter, type RateLimiter } from "./default-rate-limiters.ts";
import type { MetricsProvider } from "./metrics.ts";
import { WorkQueue, type Queue } from "./queue.ts";

export class RateLimitingQueue<T = string> extends WorkQueue<T> {
  readonly #clock: Clock;
  readonly #limiter: RateLimiter<T>;
  readonly #waiting = new Map<T, { at: number; timer: TimerHandle }>();

  /**
   * `NewTypedRateLimitingQueueWithConfig(rateLimiter, {Name, Clock})`; the rate limiter defaults
   * to `DefaultTypedControllerRateLimiter` (5 ms .. 1000 s per item, 10 qps / 100 burst overall);
   * with a `metricsProvider` a named queue keeps upstream's workqueue metrics; `queue` is the
   * underlying order (`TypedQueueConfig.Queue`, default FIFO).
   */
  constructor(
    name = "",
    clock: Clock = realClock,
    rateLimiter: RateLimiter<T> = defaultControllerRateLimiter<T>(clock),
    metricsProvider?: MetricsProvider,
    queue?: Queue<T>,
  ) {
    super(name, { ...(metricsProvider !== undefined ? { metricsProvider, clock } : {}), ...(queue !== undefined ? { queue } : {}) });
    this.#clock = clock;
    this.#limiter = rateLimiter;
  }

  /** Adds `item` after `delayMs` (immediately if <= 0). */
  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown) return;
    // As upstream's delaying queue: every AddAfter counts as a retry, delayed or not.
    this.metrics?.retry();
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

  /** Failures counted for `item` since the last forget(). */
  numRequeues(item: T): number {
    return this.#limiter.numRequeues(item);
  }

  override shutDown(): void {
    for (const w of this.#waiting.values()) this.#clock.clearTimeout(w.timer);
    this.#waiting.clear();
    super.shutDown();
  }
}
