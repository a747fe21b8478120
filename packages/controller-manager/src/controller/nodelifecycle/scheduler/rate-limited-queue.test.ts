/** RateLimitedTimedQueue, after pkg/controller/nodelifecycle/scheduler/rate_limited_queue_test.go. */
import { FakeClock } from "@servicenet/component-base/clock";
import { describe, expect, it } from "vitest";
import { RateLimitedTimedQueue } from "./rate-limited-queue.ts";

describe("RateLimitedTimedQueue", () => {
  it("TestAddNode / TestDelNode: values are a set, ordered by when they were added", () => {
    const clock = new FakeClock(0);
    const q = new RateLimitedTimedQueue(clock, 1);
    expect(q.add("first", "11111")).toBe(true);
    clock.step(1);
    q.add("second", "22222");
    clock.step(1);
    q.add("third", "33333");
    expect(q.add("first", "11111")).toBe(false);
    expect(q.values().map((v) => v.value)).toEqual(["first", "second", "third"]);
    expect(q.remove("second")).toBe(true);
    expect(q.remove("second")).toBe(false);
    expect(q.values().map((v) => v.value)).toEqual(["first", "third"]);
  });

  it("TestTry: one value per token; an unfinished value comes back after its wait", async () => {
    const clock = new FakeClock(0);
    const q = new RateLimitedTimedQueue(clock, 1);
    for (const v of ["first", "second", "third"]) q.add(v, v);
    const seen: string[] = [];
    await q.try((v) => (seen.push(v.value), Promise.resolve([v.value !== "first", 5000])));
    // Burst 1: only the head this time.
    expect(seen).toEqual(["first"]);
    clock.step(1000);
    await q.try((v) => (seen.push(v.value), Promise.resolve([true, 0])));
    expect(seen).toEqual(["first", "second"]);
    clock.step(10_000);
    await q.try((v) => (seen.push(v.value), Promise.resolve([true, 0])));
    expect(q.values().map((v) => v.value)).toEqual(["first"]);
    clock.step(1000);
    await q.try((v) => (seen.push(v.value), Promise.resolve([true, 0])));
    expect(seen).toEqual(["first", "second", "third", "first"]);
    expect(q.values()).toEqual([]);
  });

  it("TestSwapLimiter: qps 0 stops everything", async () => {
    const clock = new FakeClock(0);
    const q = new RateLimitedTimedQueue(clock, 0.1);
    q.swapLimiter(0);
    expect(q.qps()).toBe(0);
    q.add("a", "a");
    clock.step(60_000);
    let calls = 0;
    await q.try(() => (calls++, Promise.resolve([true, 0])));
    expect(calls).toBe(0);
    q.swapLimiter(0.1);
    await q.try(() => (calls++, Promise.resolve([true, 0])));
    expect(calls).toBe(1);
  });
});
