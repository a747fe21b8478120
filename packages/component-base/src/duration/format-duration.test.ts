import { describe, expect, it } from "vitest";
import { formatGoDuration } from "./format-duration.ts";
import { parseGoDuration } from "./parse-duration.ts";

// Go's time.Duration.String (TestDurationString rows with whole milliseconds).
describe("formatGoDuration", () => {
  it.each([
    [0, "0s"],
    [1, "1ms"],
    [250, "250ms"],
    [1000, "1s"],
    [1500, "1.5s"],
    [2200, "2.2s"],
    [30_000, "30s"],
    [60_000, "1m0s"],
    [90_000, "1m30s"],
    [900_000, "15m0s"],
    [3_600_000, "1h0m0s"],
    [86_400_000, "24h0m0s"],
    [3_723_004, "1h2m3.004s"],
    [-1000, "-1s"],
  ])("%d ms is %s, which parses back", (ms, text) => {
    expect(formatGoDuration(ms)).toBe(text);
    expect(parseGoDuration(text)).toBe(ms);
  });
});
