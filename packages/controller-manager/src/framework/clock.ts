/**
 * Time source for queues, informers and leader election. Controllers take a
 * Clock instead of calling Date.now/setTimeout so tests can step time
 * (client-go's k8s.io/utils/clock, as repairip.go injects it).
 */

/** An opaque timer handle. */
export type TimerHandle = { readonly id: number };

/** What the framework needs from time: a wall clock in ms and one-shot timers. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/**
 * The process clock. Timers are ref'd on purpose: a candidate waiting for the
 * Lease has nothing else keeping the event loop alive (an unref'd retry timer
 * let the process exit silently).
 */
export const realClock: Clock = (() => {
  const timers = new Map<number, NodeJS.Timeout>();
  let next = 1;
  return {
    now: () => Date.now(),
    setTimeout(fn, ms) {
      const id = next++;
      const t = setTimeout(() => {
        timers.delete(id);
        fn();
      }, Math.max(0, ms));
      timers.set(id, t);
      return { id };
    },
    clearTimeout(handle) {
      const t = timers.get(handle.id);
      if (t !== undefined) clearTimeout(t);
      timers.delete(handle.id);
    },
  };
})();

interface PendingTimer {
  readonly id: number;
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
}

/**
 * A manually stepped clock (client-go's clock/testing.FakeClock). `step(ms)`
 * fires due timers in due order, each seeing `now()` equal to its due time.
 */
export class FakeClock implements Clock {
  #now: number;
  #timers = new Map<number, PendingTimer>();
  #next = 1;

  constructor(start = Date.parse("2026-01-01T00:00:00Z")) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.#next++;
    this.#timers.set(id, { id, at: this.#now + Math.max(0, ms), seq: id, fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete(handle.id);
  }

  /** Number of timers not yet fired. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Advances time by `ms`, firing every timer that falls due (including ones scheduled meanwhile). */
  step(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers.values()].filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (due === undefined) break;
      this.#timers.delete(due.id);
      this.#now = due.at;
      due.fn();
    }
    this.#now = end;
  }
}
