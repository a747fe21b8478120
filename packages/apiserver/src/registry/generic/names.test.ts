import { describe, expect, it } from "vitest";
import { nowRFC3339 } from "./names.ts";

describe("nowRFC3339", () => {
  it("has second precision and follows the clock across seconds, forwards and back", () => {
    expect(nowRFC3339(new Date("2026-12-02T18:00:00.001Z"))).toBe("2026-12-02T18:00:00Z");
    expect(nowRFC3339(new Date("2026-12-02T18:00:00.999Z"))).toBe("2026-12-02T18:00:00Z");
    expect(nowRFC3339(new Date("2026-12-02T18:00:01.000Z"))).toBe("2026-12-02T18:00:01Z");
    expect(nowRFC3339(new Date("2025-01-01T00:00:00.500Z"))).toBe("2025-01-01T00:00:00Z");
    expect(nowRFC3339(new Date("1969-12-31T23:59:59.500Z"))).toBe("1969-12-31T23:59:59Z");
    expect(nowRFC3339()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});
