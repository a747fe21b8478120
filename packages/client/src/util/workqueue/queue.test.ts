import { describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import { ItemExponentialFailureRateLimiter } from "./default-rate-limiters.ts";
import { WorkQueue } from "./queue.ts";
import { RateLimitingQueue } from "./rate-limiting-queue.ts";

describe("WorkQueue", () => {
  it("deduplicates queued keys and keeps FIFO order", async () => {
    const q = new WorkQueue<string>();
    q.add("a");
    q.add("b");
    q.add("a");
    expect(q.len()).toBe(2);
    expect(await q.get()).toBe("a");
    expect(await q.get()).toBe("b");
  });

  it("never hands a key being processed to a second worker; re-add is deferred to done()", async () => {
    const q = new WorkQueue<string>();
    q.add("a");
    const first = await q.get();
    expect(first).toBe("a");
    q.add("a"); // while processing
    expect(q.len()).toBe(0);
    let second: string | undefined;
    void q.get().then((v) => (second = v));
    await Promise.resolve();
    expect(second).toBeUndefined();
    q.done("a");
    await Promise.resolve();
    expect(second).toBe("a");
  });

  it("wakes a waiting worker on add and reports shutdown after draining", async () => {
    const q = new WorkQueue<string>();
    const waiting = q.get();
    q.add("x");
    expect(await waiting).toBe("x");
    q.add("y");
    q.shutDown();
    q.add("z"); // rejected after shutdown
    expect(await q.get()).toBe("y");
    expect(await q.get()).toBeUndefined();
  });

  it("releases every idle worker on shutDown", async () => {
    const q = new WorkQueue<string>();
    const ws = [q.get(), q.get()];
    q.shutDown();
    expect(await Promise.all(ws)).toEqual([undefined, undefined]);
  });
});

describe("WorkQueue with a custom Queue (TypedQueueConfig.Queue)", () => {
  // queue_test.go TestQueueWithCustomQueue-like: an ordered queue decides get()'s order, and a
  // re-add of a queued (not processing) item touches it.
  it("pops in the custom order and touches a queued item added again", async () => {
    const touched: string[] = [];
    const items: string[] = [];
    const q = new WorkQueue<string>("", {
      queue: {
        touch: (i) => void touched.push(i),
        push: (i) => void items.push(i),
        len: () => items.length,
        pop: () => items.sort().shift() as string,
      },
    });
    q.add("c");
    q.add("a");
    q.add("b");
    q.add("c");
    expect(touched).toEqual(["c"]);
    expect([await q.get(), await q.get()]).toEqual(["a", "b"]);
    q.add("a");
    expect(touched).toEqual(["c"]);
    expect(q.len()).toBe(1);
  });
});

describe("RateLimitingQueue", () => {
  const make = () => {
    const clock = new FakeClock();
    return { clock, q: new RateLimitingQueue<string>("test", clock, new ItemExponentialFailureRateLimiter(5, 1000_000)) };
  };

  it("addRateLimited waits 5, 10, 20 ms on successive failures", () => {
    const { clock, q } = make();
    for (const wait of [5, 10, 20]) {
      q.addRateLimited("k");
      clock.step(wait - 1);
      expect(q.len()).toBe(0);
      clock.step(1);
      expect(q.len()).toBe(1);
      void q.get();
      q.done("k");
    }
    expect(q.numRequeues("k")).toBe(3);
    q.forget("k");
    expect(q.numRequeues("k")).toBe(0);
  });

  it("keeps the earliest of several addAfter calls for one key", () => {
    const { clock, q } = make();
    q.addAfter("k", 1000);
    q.addAfter("k", 100);
    q.addAfter("k", 500);
    clock.step(100);
    expect(q.len()).toBe(1);
    void q.get();
    q.done("k");
    clock.step(1000);
    expect(q.len()).toBe(0); // the later timers were dropped, not fired
  });

  it("shutDown cancels pending delays", () => {
    const { clock, q } = make();
    q.addAfter("k", 50);
    q.shutDown();
    expect(clock.waiters()).toBe(0);
  });
});
