import { describe, expect, it, vi } from "vitest";
import { eventually } from "./eventually.ts";

describe("eventually", () => {
  it("resolves with the first value that is neither undefined nor false", async () => {
    let n = 0;
    expect(await eventually(() => (++n >= 3 ? `after ${n}` : undefined), { intervalMs: 1 })).toBe("after 3");
    let m = 0;
    expect(await eventually(() => ++m >= 2, { intervalMs: 1 })).toBe(true);
  });

  it("treats a throwing probe as not yet and names it and its last error on timeout", async () => {
    let calls = 0;
    const probe = async (): Promise<number> => {
      calls++;
      throw new Error("connection refused");
    };
    // Fake time: on a loaded machine one real probe can outlast a 20 ms timeout by itself.
    vi.useFakeTimers();
    try {
      const done = expect(eventually(probe, { timeoutMs: 20, intervalMs: 1, what: "apiserver ready" })).rejects.toThrow(
        /^apiserver ready not met in 20 ms: Error: connection refused$/,
      );
      await vi.advanceTimersByTimeAsync(30);
      await done;
    } finally {
      vi.useRealTimers();
    }
    expect(calls).toBeGreaterThan(1);
  });

  it("keeps 0 and the empty string as values", async () => {
    expect(await eventually(() => 0)).toBe(0);
    expect(await eventually(() => "")).toBe("");
  });

  it("waits up to 60 s by default: a ceiling for a loaded machine, not a budget", async () => {
    vi.useFakeTimers();
    try {
      let ready = false;
      const done = eventually(() => ready);
      await vi.advanceTimersByTimeAsync(59_000);
      ready = true;
      await vi.advanceTimersByTimeAsync(100);
      expect(await done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
