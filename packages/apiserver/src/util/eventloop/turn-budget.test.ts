/**
 * Work that yields with `nextTurn` resumes one waiter per iteration of the event loop, so timers
 * and I/O are served between any two waiters, however many wait.
 */
import { describe, expect, it } from "vitest";
import { nextTurn, TurnBudget } from "./turn-budget.ts";

/** Spins for `ms`: a waiter spending its turn budget. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe("nextTurn", () => {
  it("serves a due timer between two waiters", async () => {
    const order: string[] = [];
    const a = nextTurn().then(() => {
      order.push("a");
      setTimeout(() => order.push("timer"), 0);
      // The timer is due before the loop could resume the next waiter.
      spin(5);
    });
    const b = nextTurn().then(() => order.push("b"));
    await Promise.all([a, b]);
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(["a", "timer", "b"]);
  });

  it("resumes waiters in the order they came", async () => {
    const order: number[] = [];
    await Promise.all([0, 1, 2, 3].map((i) => nextTurn().then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2, 3]);
  });
});

describe("TurnBudget", () => {
  it("is due once its budget is spent and starts again after a yield", async () => {
    const b = new TurnBudget(1);
    spin(2);
    expect(b.due()).toBe(true);
    await b.yield();
    expect(b.due()).toBe(false);
  });

  it("counts neither other work nor idle time while it awaited: a turn that begins after an await starts the budget again", async () => {
    const b = new TurnBudget(200);
    // Another request's work while this one awaits (its storage write): turns of 250 ms, each
    // consulting its own budget, as LISTs do.
    await (async () => {
      const other = new TurnBudget(1);
      for (let i = 0; i < 3; i++) {
        spin(250);
        other.due();
        await nextTurn();
      }
    })();
    expect(b.due()).toBe(false);
    // Budgets are wall time: 200 ms, so that the machine's load cannot spend one between two lines.
    await new Promise((r) => setTimeout(r, 500));
    expect(b.due()).toBe(false);
    spin(250);
    expect(b.due()).toBe(true);
  });
});
