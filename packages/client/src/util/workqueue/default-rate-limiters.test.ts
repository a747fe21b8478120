import { describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import { BucketRateLimiter, defaultControllerRateLimiter, ItemExponentialFailureRateLimiter } from "./default-rate-limiters.ts";

describe("ItemExponentialFailureRateLimiter", () => {
  // base 5 ms doubles per failure: 5, 10, 20, ... ; 5 * 2^17 = 655.36 s, 5 * 2^18 = 1310.72 s > 1000 s cap.
  it.each([
    [1, 5],
    [2, 10],
    [3, 20],
    [10, 2560],
    [18, 655_360],
    [19, 1000_000],
    [40, 1000_000],
  ])("failure #%i waits %i ms", (n, want) => {
    const l = new ItemExponentialFailureRateLimiter<string>(5, 1000_000);
    let got = 0;
    for (let i = 0; i < n; i++) got = l.when("a");
    expect(got).toBe(want);
    expect(l.numRequeues("a")).toBe(n);
  });

  it("tracks items separately and forget resets", () => {
    const l = new ItemExponentialFailureRateLimiter<string>(5, 1000);
    l.when("a");
    l.when("a");
    expect(l.when("b")).toBe(5);
    l.forget("a");
    expect(l.numRequeues("a")).toBe(0);
    expect(l.when("a")).toBe(5);
  });
});

describe("BucketRateLimiter", () => {
  it("passes a burst, then spaces requests at 1/qps and refills over time", () => {
    const clock = new FakeClock();
    const l = new BucketRateLimiter<string>(clock, 10, 3);
    expect([l.when("x"), l.when("x"), l.when("x")]).toEqual([0, 0, 0]);
    // Bucket empty: the 4th reserves the token due in 100 ms, the 5th the one in 200 ms.
    expect(l.when("x")).toBeCloseTo(100);
    expect(l.when("x")).toBeCloseTo(200);
    clock.step(1000); // +10 tokens, back to -2 + 10 = 8, capped at burst 3
    expect(l.when("x")).toBe(0);
  });
});

describe("defaultControllerRateLimiter", () => {
  it("takes the larger of per-item backoff and the bucket", () => {
    const clock = new FakeClock();
    const l = defaultControllerRateLimiter<string>(clock);
    expect(l.when("k")).toBe(5);
    expect(l.when("k")).toBe(10);
    expect(l.numRequeues("k")).toBe(2);
  });
});
