/**
 * Rate limiters of client-go's util/workqueue/default_rate_limiters.go: how
 * long an item waits before it is retried.
 */
import type { Clock } from "@servicenet/component-base/clock";

/** Decides the delay before an item is re-added (`workqueue.TypedRateLimiter`). */
export interface RateLimiter<T> {
  /** Delay in ms for the next retry of `item`; records one more failure. */
  when(item: T): number;
  /** Stops tracking `item` (it succeeded or was dropped). */
  forget(item: T): void;
  /** Failures recorded for `item` since the last forget. */
  numRequeues(item: T): number;
}

/**
 * Per-item exponential backoff: base * 2^failures, capped at max
 * (`ItemExponentialFailureRateLimiter`; controllers use 5 ms .. 1000 s).
 */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  readonly #failures = new Map<T, number>();
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;

  constructor(baseDelayMs: number, maxDelayMs: number) {
    this.baseDelayMs = baseDelayMs;
    this.maxDelayMs = maxDelayMs;
  }

  when(item: T): number {
    const exp = this.#failures.get(item) ?? 0;
    this.#failures.set(item, exp + 1);
    // 2^exp overflows to Infinity long before it matters; the cap keeps it finite.
    const backoff = this.baseDelayMs * 2 ** exp;
    return backoff > this.maxDelayMs ? this.maxDelayMs : backoff;
  }

  forget(item: T): void {
    this.#failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.#failures.get(item) ?? 0;
  }
}

/**
 * Overall token bucket (`BucketRateLimiter` over golang.org/x/time/rate):
 * `qps` tokens per second, `burst` at most. A request without a token
 * reserves a future one, so delays grow as requests pile up.
 */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  readonly #clock: Clock;
  readonly #qps: number;
  readonly #burst: number;
  #tokens: number;
  #last: number;

  constructor(clock: Clock, qps: number, burst: number) {
    this.#clock = clock;
    this.#qps = qps;
    this.#burst = burst;
    this.#tokens = burst;
    this.#last = clock.now();
  }

  when(_item: T): number {
    const now = this.#clock.now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#last) / 1000) * this.#qps);
    this.#last = now;
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : (-this.#tokens / this.#qps) * 1000;
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

/** The worst (longest) delay of several limiters (`MaxOfRateLimiter`). */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  readonly #limiters: readonly RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.#limiters = limiters;
  }

  when(item: T): number {
    return Math.max(0, ...this.#limiters.map((l) => l.when(item)));
  }

  forget(item: T): void {
    for (const l of this.#limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    return Math.max(0, ...this.#limiters.map((l) => l.numRequeues(item)));
  }
}

/** `DefaultControllerRateLimiter`: 5 ms .. 1000 s per item, and 10 qps / 100 burst overall. */
export function defaultControllerRateLimiter<T>(clock: Clock): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(new ItemExponentialFailureRateLimiter<T>(5, 1000_000), new BucketRateLimiter<T>(clock, 10, 100));
}
