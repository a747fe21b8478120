import { describe, expect, it } from "vitest";
import { parseListParams, parseTimeoutSeconds, parseWatchFlags } from "./query.ts";

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

  it.each([
    ["limit=99999999999999999999", "value out of range"],
    ["limit=9223372036854775808", "value out of range"],
    ["limit=-9223372036854775809", "value out of range"],
    ["limit=abc", "invalid syntax"],
    ["limit=1.5", "invalid syntax"],
    ["limit=1e3", "invalid syntax"],
    ["limit=", "invalid syntax"],
  ])("%s is a 400 (%s)", (query, why) => {
    expect(() => parseListParams(q(query))).toThrowError(`strconv.ParseInt: parsing "${query.slice("limit=".length)}": ${why}`);
  });

  it.each([
    ["timeoutSeconds=30", 30],
    ["timeoutSeconds=0", undefined],
    ["timeoutSeconds=-1", -1],
    ["timeoutSeconds=9223372036854775807", Number.MAX_SAFE_INTEGER],
    ["timeoutSeconds=30&timeoutSeconds=5", 30],
  ])("%s gives timeoutSeconds %s", (query, want) => {
    expect(parseTimeoutSeconds(q(query))).toBe(want);
  });

  it("applies the int64 range to timeoutSeconds too", () => {
    expect(() => parseTimeoutSeconds(q("timeoutSeconds=99999999999999999999"))).toThrowError(
      'strconv.ParseInt: parsing "99999999999999999999": value out of range',
    );
  });

  it.each([
    ["watch=True&allowWatchBookmarks=True&sendInitialEvents=True", { watch: true, allowWatchBookmarks: true, sendInitialEvents: true }],
    ["watch=1&allowWatchBookmarks=yes&sendInitialEvents=", { watch: true, allowWatchBookmarks: true, sendInitialEvents: true }],
    ["watch=False&allowWatchBookmarks=0&sendInitialEvents=false", { watch: false, allowWatchBookmarks: false, sendInitialEvents: false }],
    ["", { watch: false, allowWatchBookmarks: false, sendInitialEvents: false }],
  ])("%s gives the watch flags %j", (query, want) => {
    expect(parseWatchFlags(q(query))).toEqual(want);
  });
});
