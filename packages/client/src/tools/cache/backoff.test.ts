import { FakeClock } from "@servicenet/component-base/clock";
import { describe, expect, it } from "vitest";
import { BackoffManager } from "./backoff.ts";

describe("BackoffManager", () => {
  it("doubles from 800 ms to the 30 s cap", () => {
    const b = new BackoffManager(new FakeClock(0), { jitter: 0 });
    expect(Array.from({ length: 8 }, () => b.next())).toEqual([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
  });

  it("starts over when the previous backoff began more than 2 min ago", () => {
    const clock = new FakeClock(0);
    const b = new BackoffManager(clock, { jitter: 0 });
    b.next();
    b.next();
    clock.step(120_000);
    expect(b.next()).toBe(3200); // exactly 2 min: not yet
    clock.step(120_001);
    expect(b.next()).toBe(800);
  });

  it("adds jitter × delay at random (wait.Jitter with factor 1)", () => {
    const b = new BackoffManager(new FakeClock(0), {}, () => 0.5);
    expect([b.next(), b.next()]).toEqual([1200, 2400]);
  });
});
