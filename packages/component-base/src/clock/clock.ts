/**
 * Time source for queues, informers, leader election and the apiserver's controller loops
 * (k8s.io/utils/clock). Code takes a Clock instead of calling Date.now/setTimeout so tests can
 * step time (k8s.io/utils/clock/testing FakeClock, as repairip.go injects it).
 */

/** An opaque timer handle. */
export type TimerHandle = { readonly id: number };

/** What the components need from time: a wall clock in ms and one-shot timers. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Options of a RealClock. */
export interface RealClockOptions {
  /** Unref timers, so a pending timer alone never keeps the process alive. */
  unref?: boolean;
}

/** Node's clock (`clock.RealClock`). */
export class RealClock implements Clock {
  readonly #timers = new Map<number, NodeJS.Timeout>();
  readonly #unref: boolean;
  #next = 1;

  constructor(options: RealClockOptions = {}) {
    this.#unref = options.unref ?? false;
  }

  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.#next++;
    const t = setTimeout(
      () => {
        this.#timers.delete(id);
        fn();
      },
      Math.max(0, ms),
    );
    if (this.#unref) t.unref();
    this.#timers.set(id, t);
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    const t = this.#timers.get(handle.id);
    if (t !== undefined) clearTimeout(t);
    this.#timers.delete(handle.id);
  }
}

/**
 * The process clock for components. Timers are ref'd on purpose: a leader-election candidate
 * waiting for the Lease has nothing else keeping the event loop alive (an unref'd retry timer
 * let the process exit silently).
 */
export const realClock: Clock = new RealClock();

/**
 * The process clock for loops that run beside a server (the apiserver's repair and
 * default-ServiceCIDR controllers): unref'd, so a loop nobody stopped never keeps the process alive.
 */
export const backgroundClock: Clock = new RealClock({ unref: true });

/** Resolves true after `ms` on `clock`, or false as soon as `signal` aborts (wait.Until's sleep). */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      resolve(false);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
