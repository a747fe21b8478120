import { describe, expect, it } from "vitest";
import { makePod, makeService } from "../../testing/fixtures.ts";
import { formatRFC3339Nano, TriggerTimeTracker } from "./trigger-time-tracker.ts";

describe("TriggerTimeTracker", () => {
  it("reports the oldest change since the last sync, then nothing until something changes", () => {
    const t = new TriggerTimeTracker();
    const svc = makeService(); // created 00:00:00
    const pods = [makePod({ name: "a", readyTransition: "2026-01-01T00:00:30Z" })];
    expect(t.compute("default/web", svc, pods)).toBe("2026-01-01T00:00:00Z");
    expect(t.compute("default/web", svc, pods)).toBeUndefined();
    const later = [
      makePod({ name: "a", readyTransition: "2026-01-01T00:02:00Z" }),
      makePod({ name: "b", readyTransition: "2026-01-01T00:01:00.5Z" }),
    ];
    expect(t.compute("default/web", svc, later)).toBe("2026-01-01T00:01:00.5Z");
    t.deleteService("default/web");
    expect(t.compute("default/web", svc, later)).toBe("2026-01-01T00:00:00Z");
  });

  it.each([
    [Date.parse("2026-01-01T00:00:05Z"), "2026-01-01T00:00:05Z"],
    [Date.parse("2026-01-01T00:00:05.120Z"), "2026-01-01T00:00:05.12Z"],
  ])("formats %i as Go's RFC3339Nano %s", (ms, want) => {
    expect(formatRFC3339Nano(ms)).toBe(want);
  });
});
