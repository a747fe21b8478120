import { describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import { RateLimitingQueue } from "./rate-limiting-queue.ts";

describe("RateLimitingQueue", () => {
  it("queues a key once and re-queues a key added while it is processed", async () => {
    const q = new RateLimitingQueue<string>("test", new FakeClock(0));
    q.add("a");
    q.add("a");
    q.add("b");
    expect(q.len()).toBe(2);
    expect(await q.get()).toBe("a");
    q.add("a"); // while processing
    expect(q.len()).toBe(1);
    q.done("a");
    expect(q.len()).toBe(2);
    expect([await q.get(), await q.get()]).toEqual(["b", "a"]);
  });

  it("backs off 5 ms·2^n per failure and forgets on success", async () => {
    const clock = new FakeClock(0);
    const q = new RateLimitingQueue<string>("test", clock);
    const delays: number[] = [];
    for (let n = 0; n < 4; n++) {
      q.addRateLimited("k");
      let waited = 0;
      while (q.len() === 0 && waited < 1000) {
        clock.step(1);
        waited++;
      }
      delays.push(waited);
      q.done((await q.get())!);
    }
    expect(delays).toEqual([5, 10, 20, 40]);
    expect(q.numRequeues("k")).toBe(4);
    q.forget("k");
    expect(q.numRequeues("k")).toBe(0);
  });

  it("keeps the earliest of two delayed adds of a key", () => {
    const clock = new FakeClock(0);
    const q = new RateLimitingQueue<string>("test", clock);
    q.addAfter("k", 60_000);
    q.addAfter("k", 1_000);
    q.addAfter("k", 30_000);
    expect(clock.waiters()).toBe(1);
    clock.step(1_000);
    expect(q.len()).toBe(1);
  });

  it("wakes waiting getters with undefined on shutdown and drops delayed adds", async () => {
    const clock = new FakeClock(0);
    const q = new RateLimitingQueue<string>("test", clock);
    const waiting = q.get();
    q.addAfter("k", 10);
    q.shutDown();
    expect(await waiting).toBeUndefined();
    expect(clock.waiters()).toBe(0);
    expect(await q.get()).toBeUndefined();
  });

  it("hands out what was queued before shutDown, then undefined (queue.go Get drains; the repair loop's copy dropped them)", async () => {
    const q = new RateLimitingQueue<string>("test", new FakeClock(0));
    q.add("a");
    q.add("b");
    q.shutDown();
    q.add("c"); // refused after shutdown
    expect([await q.get(), await q.get(), await q.get()]).toEqual(["a", "b", undefined]);
  });

  it("defaults to DefaultControllerRateLimiter: the overall bucket (10 qps, burst 100) also spaces out failures", () => {
    const clock = new FakeClock(0);
    const q = new RateLimitingQueue<string>("test", clock);
    // 100 distinct keys use the burst; the 101st waits for a token (100 ms at 10 qps), not 5 ms.
    for (let i = 0; i < 100; i++) q.addRateLimited(`k${i}`);
    q.addRateLimited("late");
    clock.step(5);
    expect(q.len()).toBe(100);
    clock.step(95);
    expect(q.len()).toBe(101);
  });
});
