import { describe, expect, it } from "vitest";
import { parseGoDuration } from "./parse-duration.ts";

describe("parseGoDuration", () => {
  it.each([
    ["15s", 15_000],
    ["0", 0],
    ["500ms", 500],
    ["1m30s", 90_000],
    ["1.5h", 5_400_000],
    ["2s500ms", 2_500],
    ["-1s", -1_000],
    ["1500us", 1.5],
    [".5s", 500],
  ])("%s = %d ms", (s, ms) => {
    expect(parseGoDuration(s)).toBeCloseTo(ms, 9);
  });

  it.each(["", "15", "1d", "s", "1s ", "--1s", "1.s.5"])("%j is invalid", (s) => {
    expect(() => parseGoDuration(s)).toThrow(`time: invalid duration ${JSON.stringify(s)}`);
  });
});
