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
 * The time spent in the current turn: from the last `yield`, or, for work that resumed after an
 * await (I/O, a storage write), from its first look at the budget in the iteration it resumed in.
 * Measured from the last `yield`, a request that awaited its storage write while 30 LISTs took
 * their turns found its budget spent on resuming; measured from the start of the iteration, it
 * found it spent by the requests the iteration ran before it (under a flood, every time): either
 * way it yielded at once, behind the LISTs, though it had hardly run.
 */
export class TurnBudget {
  readonly #budgetMs: number;
  #since = performance.now();
  #idleAtSince = idleMs();
  /** False until its first yield: then it waits as a newcomer (`nextTurn`). */
  #yielded = false;

  constructor(budgetMs = defaultTurnBudgetMs) {
    this.#budgetMs = budgetMs;
    markIterations();
  }

  /** True once the current turn has run longer than the budget. */
  due(): boolean {
    markIterations();
    if (iterationMark.at > this.#since) {
      this.#since = performance.now();
      this.#idleAtSince = idleMs();
      return false;
    }
    const spent = performance.now() - this.#since;
    return spent >= this.#budgetMs && spent - (idleMs() - this.#idleAtSince) >= this.#budgetMs;
  }

  /** Gives the event loop a turn (timers, I/O, other requests), then starts a new one. */
  async yield(): Promise<void> {
    const newcomer = !this.#yielded;
    this.#yielded = true;
    await nextTurn(newcomer);
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
 * When the loop last passed its check phase while budgets were consulted: whatever runs after it
 * runs in a later iteration, so a budget last looked at before this mark has resumed after an
 * await. Stamped by one setImmediate per iteration, armed only while budgets are in use.
 */
const iterationMark = { at: 0 };
let marking = false;

function markIterations(): void {
  if (marking) return;
  marking = true;
  setImmediate(() => {
    marking = false;
    iterationMark.at = performance.now();
  });
}

/** Requests waiting in `nextTurn`, resumed one per iteration of the event loop. */
const waiting: { newcomer: boolean; resume: () => void }[] = [];
let resuming = false;
/** Whether the last waiter resumed was a newcomer that went ahead of older waiters. */
let jumped = false;

/**
 * Resolves in a later iteration of the event loop, one waiter per iteration. With a plain
 * setImmediate every waiter resumes in the same check phase, so 30 LISTs each spending their
 * budget made one iteration of 30 budgets before the loop polled I/O again (an admin's request
 * waited behind all of them at each of its steps); here I/O and timers are served between any
 * two waiters, as Go's scheduler runs a newly runnable goroutine between time slices of the
 * busy ones. The waiters resume oldest first, except that a `newcomer` (a budget's first turn)
 * goes ahead of the others, though never twice in a row: Go's scheduler runs a goroutine just
 * made runnable next (`runnext` in runtime/runtime2.go), within the time slice of the one that
 * readied it so that the two cannot starve the rest. So a short request (an admin's create, a
 * controller's update) that yields waits an iteration or two, not one per LIST also waiting, and
 * the LISTs and a near-limit create still get every other iteration, however many newcomers come.
 */
export function nextTurn(newcomer = false): Promise<void> {
  return new Promise((resolve) => {
    waiting.push({ newcomer, resume: resolve });
    if (!resuming) {
      resuming = true;
      setImmediate(resumeOne);
    }
  });
}

function resumeOne(): void {
  const ahead = jumped ? -1 : waiting.findIndex((w) => w.newcomer);
  jumped = ahead > 0;
  const next = waiting.splice(Math.max(0, ahead), 1)[0];
  // Queued from inside a check-phase callback, the next immediate runs in the next iteration.
  if (waiting.length > 0) setImmediate(resumeOne);
  else resuming = false;
  next?.resume();
}
