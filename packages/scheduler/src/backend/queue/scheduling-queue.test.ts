import { FakeClock } from "@servicenet/component-base/clock";
import { describe, expect, it } from "vitest";
import { SchedulingQueue } from "./scheduling-queue.ts";

const setup = () => {
  const clock = new FakeClock();
  return { clock, q: new SchedulingQueue({ clock }) };
};

/** Pops `key` (which must be queued) and fails it as unschedulable in its own cycle. */
async function failOnce(q: SchedulingQueue, key: string, move?: () => void): Promise<void> {
  const popped = await q.pop();
  expect(popped?.key).toBe(key);
  move?.();
  q.addUnschedulableIfNotPresent(key, popped!.cycle, true);
  q.done(key);
}

// Lets the promise chains of timers fired by clock.step run.
const settle = () => new Promise((r) => setImmediate(r));

describe("AddUnschedulableIfNotPresent and moveRequestCycle", () => {
  // TestPriorityQueue_AddUnschedulableIfNotPresent_Backoff, TestPriorityQueue_MoveAllToActiveOrBackoffQueue.
  it.each([
    { name: "no move request: the Pod waits in unschedulablePods", moveDuring: false, want: { active: 0, unschedulable: 1 } },
    { name: "a move request during its cycle: backoffQ, then the activeQ", moveDuring: true, want: { active: 0, unschedulable: 0 } },
  ])("$name", async ({ moveDuring, want }) => {
    const { clock, q } = setup();
    q.add("ns/p");
    await failOnce(q, "ns/p", moveDuring ? () => q.moveAllToActiveOrBackoffQueue() : undefined);
    expect(q.pending()).toEqual(want);
    clock.step(1000);
    expect(q.pending().active).toBe(moveDuring ? 1 : 0);
  });

  it("a move request before the Pod's cycle started does not count", async () => {
    const { q } = setup();
    q.add("ns/a");
    q.moveAllToActiveOrBackoffQueue();
    await failOnce(q, "ns/a");
    expect(q.isUnschedulable("ns/a")).toBe(true);
  });

  it("an error (no rejecting filter) goes to the backoffQ", async () => {
    const { clock, q } = setup();
    q.add("ns/e");
    const popped = await q.pop();
    q.addUnschedulableIfNotPresent("ns/e", popped!.cycle, false);
    q.done("ns/e");
    expect(q.pending()).toEqual({ active: 0, unschedulable: 0 });
    clock.step(1000);
    expect(q.pending().active).toBe(1);
  });
});

describe("MoveAllToActiveOrBackoffQueue", () => {
  it("a Pod still backing off goes to the backoffQ, one done backing off to the activeQ", async () => {
    const { clock, q } = setup();
    q.add("ns/p");
    await failOnce(q, "ns/p");
    clock.step(500);
    q.moveAllToActiveOrBackoffQueue();
    expect(q.pending()).toEqual({ active: 0, unschedulable: 0 });
    clock.step(499);
    expect(q.pending().active).toBe(0);
    clock.step(1);
    expect(q.pending().active).toBe(1);
  });

  it("skips the Pods `except` refuses", async () => {
    const { clock, q } = setup();
    q.add("ns/a");
    q.add("ns/b");
    await failOnce(q, "ns/a");
    await failOnce(q, "ns/b");
    clock.step(10_000);
    q.moveAllToActiveOrBackoffQueue((k) => k === "ns/a");
    expect(q.isUnschedulable("ns/a")).toBe(true);
    expect(q.pending().active).toBe(1);
  });
});

describe("backoff", () => {
  // TestBackOffFlow: 1 s doubling per attempt, at most 10 s.
  it.each([
    { attempts: 1, want: 1000 },
    { attempts: 2, want: 2000 },
    { attempts: 4, want: 8000 },
    { attempts: 5, want: 10_000 },
    { attempts: 8, want: 10_000 },
  ])("attempt $attempts waits $want ms", async ({ attempts, want }) => {
    const { clock, q } = setup();
    q.add("ns/p");
    for (let i = 0; i < attempts; i++) {
      const popped = await q.pop();
      q.addUnschedulableIfNotPresent("ns/p", popped!.cycle, false);
      q.done("ns/p");
      if (i < attempts - 1) clock.step(10_000);
    }
    clock.step(want - 1);
    expect(q.pending().active).toBe(0);
    clock.step(1);
    expect(q.pending().active).toBe(1);
  });
});

describe("flushUnschedulablePodsLeftover", () => {
  // TestHighPriorityFlushUnschedulablePodsLeftover: more than podMaxInUnschedulablePodsDuration.
  it("moves a Pod unschedulable longer than 5 min on the 30 s tick of run", async () => {
    const { clock, q } = setup();
    const abort = new AbortController();
    const running = q.run(abort.signal);
    q.add("ns/p");
    await failOnce(q, "ns/p");
    for (let s = 0; s < 300; s += 30) {
      clock.step(30_000);
      await settle();
    }
    // 300 s exactly is not longer than the maximum.
    expect(q.isUnschedulable("ns/p")).toBe(true);
    clock.step(30_000);
    await settle();
    expect(q.pending()).toEqual({ active: 1, unschedulable: 0 });
    abort.abort();
    await running;
  });

  it("keeps a Pod whose failure is recent", async () => {
    const { clock, q } = setup();
    q.add("ns/old");
    q.add("ns/new");
    await failOnce(q, "ns/old");
    clock.step(200_000);
    await failOnce(q, "ns/new");
    clock.step(100_001);
    q.flushUnschedulablePodsLeftover();
    expect(q.isUnschedulable("ns/old")).toBe(false);
    expect(q.isUnschedulable("ns/new")).toBe(true);
  });
});

describe("activeQ order (PrioritySort)", () => {
  // TestPriorityQueue_Add: the highest-priority Pod pops first whatever the order of the adds.
  it("pops higher priority first, then the earlier add", async () => {
    const { clock, q } = setup();
    q.add("ns/low", 10);
    clock.step(1);
    q.add("ns/med-late", 50);
    q.add("ns/high", 100);
    q.add("ns/none");
    clock.step(1);
    q.add("ns/med-later", 50);
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      const p = await q.pop();
      order.push(p!.key);
      q.done(p!.key);
    }
    expect(order).toEqual(["ns/high", "ns/med-late", "ns/med-later", "ns/low", "ns/none"]);
  });

  it("a Pod back from backoff ranks by its failure time among equal priorities", async () => {
    const { clock, q } = setup();
    q.add("ns/a", 5);
    const popped = await q.pop();
    q.addUnschedulableIfNotPresent("ns/a", popped!.cycle, false);
    q.done("ns/a");
    clock.step(500);
    q.add("ns/b", 5);
    clock.step(600);
    await settle();
    q.add("ns/c", 1);
    expect(q.pending().active).toBe(3);
    // a failed at t=0 (its new timestamp), before b was added at t=500: a pops first, then b, then the lower c.
    const order = [(await q.pop())!.key, (await q.pop())!.key, (await q.pop())!.key];
    expect(order).toEqual(["ns/a", "ns/b", "ns/c"]);
  });

  it("takes the profile's QueueSort less (FIFO by timestamp when told)", async () => {
    const clock = new FakeClock();
    const q = new SchedulingQueue({ clock, less: (a, b) => a.timestamp < b.timestamp });
    q.add("ns/low", 1);
    clock.step(1);
    q.add("ns/high", 100);
    expect((await q.pop())!.key).toBe("ns/low");
  });
});
