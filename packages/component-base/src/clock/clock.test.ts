import { describe, expect, it } from "vitest";
import { sleep } from "./clock.ts";
import { FakeClock } from "./fake-clock.ts";

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

describe("FakeClock", () => {
  it("fires timers scheduled by a firing timer within the same step, each at its due time", () => {
    const clock = new FakeClock(0);
    const seen: number[] = [];
    clock.setTimeout(() => {
      seen.push(clock.now());
      clock.setTimeout(() => seen.push(clock.now()), 10);
    }, 10);
    clock.step(25);
    expect(seen).toEqual([10, 20]);
    expect(clock.now()).toBe(25);
  });

  it("setTime moves time without firing timers; clearTimeout cancels", () => {
    const clock = new FakeClock(new Date(0));
    let fired = 0;
    const h = clock.setTimeout(() => fired++, 10);
    clock.setTime(100);
    expect(fired).toBe(0);
    clock.clearTimeout(h);
    clock.step(1);
    expect(fired).toBe(0);
    expect(clock.waiters()).toBe(0);
  });

  it("starts at a fixed instant by default", () => {
    expect(new FakeClock().now()).toBe(Date.parse("2026-01-01T00:00:00Z"));
  });
});
