/**
 * The clock the IPAddress repair loop and the default ServiceCIDR controller run on
 * (k8s.io/utils/clock): wall time plus timers, injectable so tests can move time by hand
 * (upstream testclock.FakeClock).
 */

/** An opaque timer handle. */
export type TimerHandle = { readonly id: number } | ReturnType<typeof setTimeout>;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Node's clock; timers are unref'd so a forgotten controller never keeps the process alive. */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Resolves true after `ms` on `clock`, or false as soon as `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clock.clearTimeout(h);
      resolve(false);
    };
    const h = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

interface FakeTimer {
  id: number;
  due: number;
  fn: () => void;
}

/** A clock that only moves when told to; `step` fires the timers that came due, in order. */
export class FakeClock implements Clock {
  #now: number;
  #next = 1;
  readonly #timers = new Map<number, FakeTimer>();

  constructor(start: Date | number) {
    this.#now = typeof start === "number" ? start : start.getTime();
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const t = { id: this.#next++, due: this.#now + Math.max(0, ms), fn };
    this.#timers.set(t.id, t);
    return { id: t.id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete((handle as { id: number }).id);
  }

  /** Sets the time without firing timers (testclock SetTime). */
  setTime(t: Date | number): void {
    this.#now = typeof t === "number" ? t : t.getTime();
  }

  /** Moves time forward by `ms`, firing due timers (also ones they schedule) in due order. */
  step(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers.values()].filter((t) => t.due <= end).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!due) break;
      this.#timers.delete(due.id);
      this.#now = Math.max(this.#now, due.due);
      due.fn();
    }
    this.#now = end;
  }

  /** Number of pending timers (testclock HasWaiters). */
  waiters(): number {
    return this.#timers.size;
  }
}
