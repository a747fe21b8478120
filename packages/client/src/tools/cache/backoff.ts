/**
 * The reflector's backoff between failed list/watch rounds: exponential with jitter and a reset
 * after a quiet period (k8s.io/apimachinery/pkg/util/wait exponentialBackoffManagerImpl, as
 * reflector.go configures it: 800 ms initial, 30 s cap, reset after 2 min, factor 2, jitter 1).
 */
import type { Clock } from "@servicenet/component-base/clock";

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  /** Back to initialMs when the previous backoff started longer ago than this. */
  resetMs: number;
  factor: number;
  /** Adds up to jitter × the delay at random (wait.Jitter); 0 for none. */
  jitter: number;
}

/** reflector.go's defaultBackoff values. */
export const reflectorBackoff: BackoffOptions = { initialMs: 800, maxMs: 30_000, resetMs: 120_000, factor: 2, jitter: 1 };

export class BackoffManager {
  readonly #o: BackoffOptions;
  readonly #clock: Clock;
  readonly #random: () => number;
  #next: number;
  #lastStart = -Infinity;

  constructor(clock: Clock, options: Partial<BackoffOptions> = {}, random: () => number = Math.random) {
    this.#o = { ...reflectorBackoff, ...options };
    this.#clock = clock;
    this.#random = random;
    this.#next = this.#o.initialMs;
  }

  /** The delay before the next attempt (`getNextBackoff`). */
  next(): number {
    const now = this.#clock.now();
    if (now - this.#lastStart > this.#o.resetMs) this.#next = this.#o.initialMs;
    this.#lastStart = now;
    const base = this.#next;
    this.#next = Math.min(this.#o.maxMs, base * this.#o.factor);
    return this.#o.jitter > 0 ? base + this.#random() * this.#o.jitter * base : base;
  }
}
