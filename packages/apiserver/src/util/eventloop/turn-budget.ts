/**
 * Cooperative scheduling for long work on the event loop. Go's apiserver serves each request on
 * its own goroutine, preempted by the runtime; here one request that reads, decodes and encodes
 * thousands of objects in one turn holds every other request (an admin's GET waited seconds behind
 * 30 LISTs of 5,000 Services). Such loops ask `due()` per step and give the loop a turn when it says
 * so, so the others run in between.
 */

/** The default time one request may hold the event loop before it gives way. */
export const defaultTurnBudgetMs = 2;

/** The time spent in the current turn, measured from the last `yield`. */
export class TurnBudget {
  readonly #budgetMs: number;
  #since = performance.now();

  constructor(budgetMs = defaultTurnBudgetMs) {
    this.#budgetMs = budgetMs;
  }

  /** True once the current turn has run longer than the budget. */
  due(): boolean {
    return performance.now() - this.#since >= this.#budgetMs;
  }

  /** Gives the event loop a turn (timers, I/O, other requests), then starts a new one. */
  async yield(): Promise<void> {
    await nextTurn();
    this.#since = performance.now();
  }

  /** `yield` when `due`. */
  async maybeYield(): Promise<void> {
    if (this.due()) await this.yield();
  }
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
