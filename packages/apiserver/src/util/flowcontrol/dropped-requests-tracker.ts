/**
 * The Retry-After of a rejected request (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/
 * dropped_requests_tracker.go): per priority level, the number of requests dropped each second;
 * the suggestion doubles (up to 32 s) when a level dropped at least 3 x its current value in the
 * last Retry-After seconds, at most once per Retry-After seconds, and falls by one second when it
 * dropped fewer than its current value, as TCP's congestion window moves.
 */
import type { Clock } from "@servicenet/component-base/clock";

/** maxRetryAfter: the largest Retry-After suggested, in seconds. */
export const maxRetryAfter = 32;

/** How many requests were dropped within one second (unixStat). */
interface UnixStat {
  unixTime: number;
  requests: number;
}

/** droppedRequestsStats: one priority level's history. */
class DroppedRequestsStats {
  history: UnixStat[] = [];
  currentUnix = 0;
  currentCount = 0;
  retryAfter = 1;
  // We assume that we can bump at any time after the first dropped request.
  retryAfterUpdateUnix = 0;

  record(unixTime: number): void {
    if (this.currentUnix === unixTime) {
      this.currentCount++;
      return;
    }
    this.#updateHistory(this.currentUnix, this.currentCount);
    this.currentUnix = unixTime;
    this.currentCount = 1;
    // Only a new second reconsiders retryAfter, from the statistics of the seconds before it.
    this.#updateRetryAfter(unixTime);
  }

  #updateHistory(unixTime: number, count: number): void {
    this.history.push({ unixTime, requests: count });
    let start = 0;
    while (start < this.history.length && unixTime - this.history[start]!.unixTime > maxRetryAfter) start++;
    if (start > 0) this.history = this.history.slice(start);
  }

  /** updateRetryAfterIfNeededLocked, over the interval [unixTime-retryAfter, unixTime). */
  #updateRetryAfter(unixTime: number): void {
    let dropped = 0;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const h = this.history[i]!;
      if (unixTime - h.unixTime > this.retryAfter) break;
      if (h.unixTime < unixTime) dropped += h.requests;
    }
    if (unixTime - this.retryAfterUpdateUnix >= this.retryAfter && dropped >= 3 * this.retryAfter) {
      this.retryAfter = Math.min(this.retryAfter * 2, maxRetryAfter);
      this.retryAfterUpdateUnix = unixTime;
      return;
    }
    if (dropped < this.retryAfter && this.retryAfter > 1) this.retryAfter--;
  }
}

/** DroppedRequestsTracker: the dropped-request history of every priority level. */
export class DroppedRequestsTracker {
  readonly #clock: Pick<Clock, "now">;
  readonly #levels = new Map<string, DroppedRequestsStats>();

  constructor(clock: Pick<Clock, "now">) {
    this.#clock = clock;
  }

  /** RecordDroppedRequest: a request of `priorityLevel` was just rejected. */
  recordDroppedRequest(priorityLevel: string): void {
    let stats = this.#levels.get(priorityLevel);
    if (stats === undefined) this.#levels.set(priorityLevel, (stats = new DroppedRequestsStats()));
    stats.record(Math.floor(this.#clock.now() / 1000));
  }

  /** GetRetryAfter: the Retry-After (seconds) to suggest for `priorityLevel`. */
  getRetryAfter(priorityLevel: string): number {
    return this.#levels.get(priorityLevel)?.retryAfter ?? 1;
  }
}
