/**
 * pkg/controller/tainteviction/timed_workers.go (Kubernetes 1.33): a set of one-shot timers, one
 * per Pod, each running the work function no earlier than its fire time. The taint-eviction
 * controller schedules a Pod's deletion here and cancels it when the taint goes or is tolerated.
 */
import type { Clock, TimerHandle } from "@servicenet/component-base/clock";
import { describeError } from "@servicenet/client/errors";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";

/** `WorkArgs`: the Pod the work is for (its NamespacedName). */
export interface WorkArgs {
  namespace: string;
  name: string;
}

/** `NewWorkArgs`. */
export const newWorkArgs = (name: string, namespace: string): WorkArgs => ({ namespace, name });

/** `KeyFromWorkArgs`: `NamespacedName.String()`, `<namespace>/<name>`. */
export const keyFromWorkArgs = (a: WorkArgs): string => `${a.namespace}/${a.name}`;

/** The work function: resolves when done, rejects on failure; `signal` aborts at shutdown (upstream's ctx). */
export type WorkFunc = (fireAt: number, args: WorkArgs, signal: AbortSignal) => Promise<void>;

/** `TimedWorker`: work that has not fired yet. Times are epoch milliseconds. */
export class TimedWorker {
  readonly workItem: WorkArgs;
  readonly createdAt: number;
  readonly fireAt: number;
  readonly #clock: Clock;
  readonly #timer: TimerHandle;

  constructor(workItem: WorkArgs, createdAt: number, fireAt: number, clock: Clock, fire: () => void) {
    this.workItem = workItem;
    this.createdAt = createdAt;
    this.fireAt = fireAt;
    this.#clock = clock;
    this.#timer = clock.setTimeout(fire, fireAt - createdAt);
  }

  /** `Cancel`: the timer is stopped (work already running is not). */
  cancel(): void {
    this.#clock.clearTimeout(this.#timer);
  }
}

/** One key's entry: its timed worker, none for immediate work and once work succeeded (Go's nil). */
interface Entry {
  worker: TimedWorker | undefined;
}

/**
 * `TimedWorkerQueue`. A key maps to its pending worker, or to no worker while immediate work runs
 * and after work succeeded: upstream keeps a finished key "to avoid duplicated calls", so the same
 * Pod is not scheduled again until the key is cancelled (`CancelWork`).
 */
export class TimedWorkerQueue {
  readonly #workers = new Map<string, Entry>();
  readonly #running = new Set<Promise<void>>();
  readonly #stop = new AbortController();
  readonly #workFunc: WorkFunc;
  readonly #clock: Clock;
  readonly #log: Logger;

  /** `CreateWorkerQueue`. */
  constructor(workFunc: WorkFunc, clock: Clock, logger: Logger = noopLogger) {
    this.#workFunc = workFunc;
    this.#clock = clock;
    this.#log = logger;
  }

  // getWrappedWorkerFunc + createWorker's fWithErrorLogging: run, then keep the key (success) or
  // drop it (failure). Only the entry that ran is touched: a replacement added while it ran stays
  // (the stale-completion fix upstream made after 1.33, TestRunningWorkerCompletionDoesNotRemoveReplacement).
  #run(key: string, entry: Entry, fireAt: number, args: WorkArgs): void {
    const mine = () => this.#workers.get(key) === entry;
    const p = this.#workFunc(fireAt, args, this.#stop.signal).then(
      () => {
        if (mine()) entry.worker = undefined;
      },
      (err: unknown) => {
        if (mine()) this.#workers.delete(key);
        this.#log.error("NodeLifecycle: timed worker failed", { err: describeError(err) });
      },
    );
    this.#running.add(p);
    void p.finally(() => this.#running.delete(p));
  }

  /** `AddWork`: runs `fireAt - createdAt` from now (at once when not positive); an existing key is kept. */
  addWork(args: WorkArgs, createdAt: number, fireAt: number): void {
    const key = keyFromWorkArgs(args);
    V(this.#log, 4).info("Adding TimedWorkerQueue item and to be fired at firedTime", {
      item: key,
      createTime: new Date(createdAt).toISOString(),
      firedTime: new Date(fireAt).toISOString(),
    });
    if (this.#workers.has(key)) {
      this.#log.info("Trying to add already existing work, skipping", { args: key });
      return;
    }
    const entry: Entry = { worker: undefined };
    this.#workers.set(key, entry);
    if (fireAt - createdAt <= 0) {
      // createWorker's `go fWithErrorLogging()`: started now, after the caller's turn; no timer to keep.
      queueMicrotask(() => this.#run(key, entry, fireAt, args));
      return;
    }
    entry.worker = new TimedWorker(args, createdAt, fireAt, this.#clock, () => this.#run(key, entry, fireAt, args));
  }

  /** `CancelWork`: forgets the key; true when a pending timer was stopped. */
  cancelWork(key: string): boolean {
    if (!this.#workers.has(key)) return false;
    V(this.#log, 4).info("Cancelling TimedWorkerQueue item", { item: key, time: new Date(this.#clock.now()).toISOString() });
    const worker = this.#workers.get(key)?.worker;
    this.#workers.delete(key);
    if (worker === undefined) return false;
    worker.cancel();
    return true;
  }

  /** `GetWorkerUnsafe`: the pending worker of `key` (undefined when none, running or done). */
  getWorkerUnsafe(key: string): TimedWorker | undefined {
    return this.#workers.get(key)?.worker;
  }

  /** Stops every pending timer, aborts the work already running and waits for it (the controller's shutdown). */
  async cancelAndWait(): Promise<void> {
    this.#stop.abort();
    for (const e of this.#workers.values()) e.worker?.cancel();
    this.#workers.clear();
    await Promise.all([...this.#running]);
  }
}
