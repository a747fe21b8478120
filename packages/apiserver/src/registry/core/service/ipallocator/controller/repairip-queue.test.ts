import { describe, expect, it } from "vitest";
import { FakeClock, sleep } from "./repairip-clock.ts";
import { RateLimitingQueue } from "./repairip-queue.ts";

describe("RateLimitingQueue", () => {
  it("queues a key once and re-queues a key added while it is processed", async () => {
    const q = new RateLimitingQueue("test", new FakeClock(0));
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
    const q = new RateLimitingQueue("test", clock);
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
    const q = new RateLimitingQueue("test", clock);
    q.addAfter("k", 60_000);
    q.addAfter("k", 1_000);
    q.addAfter("k", 30_000);
    expect(clock.waiters()).toBe(1);
    clock.step(1_000);
    expect(q.len()).toBe(1);
  });

  it("wakes waiting getters with undefined on shutdown and drops delayed adds", async () => {
    const clock = new FakeClock(0);
    const q = new RateLimitingQueue("test", clock);
    const waiting = q.get();
    q.addAfter("k", 10);
    q.shutDown();
    expect(await waiting).toBeUndefined();
    expect(clock.waiters()).toBe(0);
    expect(await q.get()).toBeUndefined();
  });
});

describe("FakeClock and sleep", () => {
  it("fires timers in due order and sleep resolves false on abort", async () => {
    const clock = new FakeClock(1000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push("b"), 20);
    clock.setTimeout(() => fired.push("a"), 10);
    clock.step(15);
    expect(fired).toEqual(["a"]);
    expect(clock.now()).toBe(1015);
    clock.step(5);
    expect(fired).toEqual(["a", "b"]);
    const ac = new AbortController();
    const p = sleep(clock, 1000, ac.signal);
    ac.abort();
    expect(await p).toBe(false);
    expect(clock.waiters()).toBe(0);
  });
});
