/** A manually stepped clock (k8s.io/utils/clock/testing FakeClock). */
import type { Clock, TimerHandle } from "./clock.ts";

interface PendingTimer {
  readonly id: number;
  readonly at: number;
  readonly fn: () => void;
}

const defaultStart = Date.parse("2026-01-01T00:00:00Z");

/** `step(ms)` fires due timers in due order, each seeing `now()` equal to its due time. */
export class FakeClock implements Clock {
  #now: number;
  readonly #timers = new Map<number, PendingTimer>();
  #next = 1;

  constructor(start: Date | number = defaultStart) {
    this.#now = typeof start === "number" ? start : start.getTime();
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.#next++;
    this.#timers.set(id, { id, at: this.#now + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete(handle.id);
  }

  /** Sets the time without firing timers (testclock SetTime). */
  setTime(t: Date | number): void {
    this.#now = typeof t === "number" ? t : t.getTime();
  }

  /** Number of timers not yet fired (testclock HasWaiters, as a count). */
  waiters(): number {
    return this.#timers.size;
  }

  /** Advances time by `ms`, firing every timer that falls due (including ones scheduled meanwhile). */
  step(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers.values()].filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      this.#timers.delete(due.id);
      this.#now = Math.max(this.#now, due.at);
      due.fn();
    }
    this.#now = end;
  }
}
