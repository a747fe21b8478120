/**
 * pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go: the per-zone queue of Nodes
 * waiting for their NoExecute taint, drained at most `qps` Nodes per second (burst 1).
 */
import { PassiveTokenBucket } from "@servicenet/client/tools/record";
import type { Clock } from "@servicenet/component-base/clock";

/** `NodeEvictionPeriod`: how often the zone queues are tried. */
export const nodeEvictionPeriodMs = 100;
/** `EvictionRateLimiterBurst`. */
export const evictionRateLimiterBurst = 1;

/** `TimedValue`: a Node name, its UID and when it may next be processed. */
export interface TimedValue {
  value: string;
  uid: string;
  addedAt: number;
  processAt: number;
}

/** What `Try` calls for a value: done (removed), or not done and retried after `waitMs`. */
export type ActionFunc = (v: TimedValue) => Promise<[done: boolean, waitMs: number]>;

/** `RateLimitedTimedQueue`: a set of values ordered by processAt, drained through a token bucket. */
export class RateLimitedTimedQueue {
  readonly #clock: Clock;
  #items = new Map<string, TimedValue>();
  #qps: number;
  #limiter: PassiveTokenBucket | undefined;

  constructor(clock: Clock, qps: number) {
    this.#clock = clock;
    this.#qps = qps;
    this.#limiter = newLimiter(clock, qps);
  }

  /** `Add`: queued for now unless already there; returns whether it was added. */
  add(value: string, uid: string): boolean {
    if (this.#items.has(value)) return false;
    const now = this.#clock.now();
    this.#items.set(value, { value, uid, addedAt: now, processAt: now });
    return true;
  }

  /** `Remove`: returns whether it was queued. */
  remove(value: string): boolean {
    return this.#items.delete(value);
  }

  /** `Clear`. */
  clear(): void {
    this.#items.clear();
  }

  /** The queued values, first due first. */
  values(): TimedValue[] {
    return [...this.#items.values()].sort((a, b) => a.processAt - b.processAt);
  }

  /** The current rate (0: evictions stopped). */
  qps(): number {
    return this.#qps;
  }

  /** `SwapLimiter`: a new bucket of `qps` (never accepting when qps <= 0); nothing changes for the same rate. */
  swapLimiter(qps: number): void {
    if (qps === this.#qps) return;
    this.#qps = qps;
    this.#limiter = newLimiter(this.#clock, qps);
  }

  /**
   * `Try`: while a token is available and the head is due, runs `fn` on it; a value `fn` did not
   * finish is put back due `waitMs` later.
   */
  async try(fn: ActionFunc): Promise<void> {
    for (let head = this.values()[0]; head !== undefined; head = this.values()[0]) {
      const now = this.#clock.now();
      if (this.#limiter === undefined || !this.#limiter.tryAccept(now)) return;
      if (now < head.processAt) return;
      const [done, waitMs] = await fn(head);
      // Removed (or replaced) meanwhile: leave what is there now.
      if (this.#items.get(head.value) !== head) continue;
      if (done) this.#items.delete(head.value);
      else head.processAt = now + waitMs + 1;
    }
  }
}

function newLimiter(clock: Clock, qps: number): PassiveTokenBucket | undefined {
  return qps <= 0 ? undefined : new PassiveTokenBucket(qps, evictionRateLimiterBurst, clock.now());
}
