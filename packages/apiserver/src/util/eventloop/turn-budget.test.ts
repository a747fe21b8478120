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

  it("resumes a newcomer ahead of older waiters, but never two newcomers in a row", async () => {
    const order: string[] = [];
    await Promise.all([
      nextTurn().then(() => order.push("list-1")),
      nextTurn().then(() => order.push("list-2")),
      nextTurn(true).then(() => order.push("admin")),
      nextTurn().then(() => order.push("list-3")),
      nextTurn(true).then(() => order.push("controller")),
    ]);
    expect(order).toEqual(["admin", "list-1", "controller", "list-2", "list-3"]);
  });

  it("leaves no older waiter behind a stream of newcomers", async () => {
    const order: string[] = [];
    const long = nextTurn().then(() => order.push("long"));
    // A newcomer every iteration, each resumed one iteration later.
    const newcomers: Promise<unknown>[] = [];
    for (let i = 0; i < 6 && !order.includes("long"); i++) {
      newcomers.push(nextTurn(true).then(() => order.push(`new-${i}`)));
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all([long, ...newcomers]);
    expect(order.indexOf("long")).toBeLessThanOrEqual(1);
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

  it("counts not the work the iteration ran before it resumed: a request behind others in one poll phase still has its budget", async () => {
    const b = new TurnBudget(20);
    // The iteration mark is stamped in this check phase.
    await new Promise((r) => setImmediate(r));
    // Two timers of one timers phase: another request's 60 ms, then this one's resumption.
    await new Promise<void>((resolve) => {
      setTimeout(() => spin(60), 1);
      setTimeout(resolve, 1);
    });
    expect(b.due()).toBe(false);
    spin(25);
    expect(b.due()).toBe(true);
  });

  it("waits as a newcomer at its first yield only", async () => {
    const order: string[] = [];
    const waitAll = (a: TurnBudget, b: TurnBudget): Promise<unknown> =>
      Promise.all([
        nextTurn().then(() => order.push("older")),
        a.yield().then(() => order.push("a")),
        b.yield().then(() => order.push("b")),
      ]);
    const a = new TurnBudget(1);
    const b = new TurnBudget(1);
    await waitAll(a, b);
    expect(order).toEqual(["a", "older", "b"]);
    order.length = 0;
    await waitAll(a, b);
    expect(order).toEqual(["older", "a", "b"]);
  });
});
