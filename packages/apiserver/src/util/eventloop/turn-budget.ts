/**
 * Cooperative scheduling for long work on the event loop. Go's apiserver serves each request on
 * its own goroutine, preempted by the runtime; here one request that reads, decodes and encodes
 * thousands of objects in one turn holds every other request (an admin's GET waited seconds behind
 * 30 LISTs of 5,000 Services). Such loops ask `due()` per step and give the loop a turn when it says
 * so, so the others run in between.
 */

/** The default time one request may hold the event loop before it gives way. */
export const defaultTurnBudgetMs = 2;

/**
 * The time spent in the current turn: from the last `yield`, or from the start of the loop
 * iteration the work resumed in after an await (I/O, a storage write), less the time the loop sat
 * idle meanwhile. Measured from the last `yield` alone, a request that awaited its storage write
 * while 30 LISTs took their turns found its budget spent on resuming and yielded at once, to the
 * back of the waiters, at each of its steps.
 */
export class TurnBudget {
  readonly #budgetMs: number;
  #since = performance.now();
  #idleAtSince = idleMs();

  constructor(budgetMs = defaultTurnBudgetMs) {
    this.#budgetMs = budgetMs;
    markIterations();
  }

  /** True once the current turn has run longer than the budget. */
  due(): boolean {
    markIterations();
    if (iterationMark.at > this.#since) {
      this.#since = iterationMark.at;
      this.#idleAtSince = iterationMark.idle;
    }
    const spent = performance.now() - this.#since;
    return spent >= this.#budgetMs && spent - (idleMs() - this.#idleAtSince) >= this.#budgetMs;
  }

  /** Gives the event loop a turn (timers, I/O, other requests), then starts a new one. */
  async yield(): Promise<void> {
    await nextTurn();
    this.#since = performance.now();
    this.#idleAtSince = idleMs();
  }

  /** `yield` when `due`. */
  async maybeYield(): Promise<void> {
    if (this.due()) await this.yield();
  }
}

/** The loop's idle time so far (ms waiting for I/O or timers): not any request's turn. */
const idleMs = (): number => performance.eventLoopUtilization().idle;

/**
 * When the loop last passed its check phase while budgets were consulted (and its idle time then):
 * whatever runs after it runs in a later iteration, so a turn that began after an await began
 * after this mark. Stamped by one setImmediate per iteration, armed only while budgets are in use.
 */
const iterationMark = { at: 0, idle: 0 };
let marking = false;

function markIterations(): void {
  if (marking) return;
  marking = true;
  setImmediate(() => {
    marking = false;
    iterationMark.at = performance.now();
    iterationMark.idle = idleMs();
  });
}

/** Requests waiting in `nextTurn`, resumed one per iteration of the event loop, oldest first. */
const waiting: (() => void)[] = [];
let resuming = false;

/**
 * Resolves in a later iteration of the event loop, one waiter per iteration. With a plain
 * setImmediate every waiter resumes in the same check phase, so 30 LISTs each spending their
 * budget made one iteration of 30 budgets before the loop polled I/O again (an admin's request
 * waited behind all of them at each of its steps); here I/O and timers are served between any
 * two waiters, as Go's scheduler runs a newly runnable goroutine between time slices of the
 * busy ones.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!resuming) {
      resuming = true;
      setImmediate(resumeOne);
    }
  });
}

function resumeOne(): void {
  const next = waiting.shift();
  // Queued from inside a check-phase callback, the next immediate runs in the next iteration.
  if (waiting.length > 0) setImmediate(resumeOne);
  else resuming = false;
  next?.();
}
