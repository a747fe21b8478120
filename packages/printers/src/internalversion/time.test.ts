import { describe, expect, it } from "vitest";
import { parseTime, translateTimestampSince } from "./time.ts";

describe("translateTimestampSince (metav1.Time.IsZero, time.Since)", () => {
  const now = new Date("2026-01-01T00:00:00Z");
  it.each([
    [undefined, "<unknown>"],
    ["", "<unknown>"],
    ["0001-01-01T00:00:00Z", "<unknown>"],
    ["0001-01-01T01:00:00+01:00", "<unknown>"],
    // One second after the zero time is an ordinary time; time.Since saturates at ~292 years.
    ["0001-01-01T00:00:01Z", "292y"],
    ["1800-01-01T00:00:00Z", "226y"],
    ["9999-12-31T23:59:59Z", "<invalid>"],
    ["2025-12-31T23:59:00Z", "60s"],
  ])("%s -> %s", (ts, want) => {
    expect(translateTimestampSince(ts, now)).toBe(want);
  });
  it("a MicroTime microseconds after the zero time is not zero", () => {
    expect(parseTime("0001-01-01T00:00:00.000001Z")).not.toBeNull();
    expect(parseTime("0001-01-01T00:00:00.000000Z")).toBeNull();
  });
});
