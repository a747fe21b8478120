import { describe, expect, it } from "vitest";
import { parseListParams, parseTimeoutSeconds } from "./query.ts";

const q = (s: string) => new URLSearchParams(s);

describe("list and watch query parameters", () => {
  it.each([
    ["limit=500", 500],
    ["limit=0", undefined],
    ["limit=-1", undefined],
    ["limit=9223372036854775807", Number.MAX_SAFE_INTEGER],
  ])("%s gives limit %s", (query, want) => {
    expect(parseListParams(q(query)).limit).toBe(want);
  });

  it.each(["limit=99999999999999999999", "limit=9223372036854775808", "limit=-9223372036854775809", "limit=abc", "limit=1.5", "limit=1e3"])(
    "%s is a 400",
    (query) => {
      expect(() => parseListParams(q(query))).toThrowError(/^invalid value for limit: /);
    },
  );

  it("applies the int64 range to timeoutSeconds too", () => {
    expect(parseTimeoutSeconds(q("timeoutSeconds=30"))).toBe(30);
    expect(() => parseTimeoutSeconds(q("timeoutSeconds=99999999999999999999"))).toThrowError(
      'invalid value for timeoutSeconds: "99999999999999999999"',
    );
  });
});
