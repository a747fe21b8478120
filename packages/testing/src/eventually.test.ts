import { describe, expect, it } from "vitest";
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
    await expect(eventually(probe, { timeoutMs: 20, intervalMs: 1, what: "apiserver ready" })).rejects.toThrow(
      /^apiserver ready not met in 20 ms: Error: connection refused$/,
    );
    expect(calls).toBeGreaterThan(1);
  });

  it("keeps 0 and the empty string as values", async () => {
    expect(await eventually(() => 0)).toBe(0);
    expect(await eventually(() => "")).toBe("");
  });
});
