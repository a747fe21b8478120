import { describe, expect, it } from "vitest";
import { ConditionSchema } from "./condition.ts";
import { formatParsedMicroTime, formatParsedTime, parseRFC3339 } from "./time.ts";
import { MicroTimeSchema, TimeSchema } from "./type-meta.ts";

const L = '"2006-01-02T15:04:05Z07:00"';

describe("parseRFC3339 (Go time.Parse(time.RFC3339, s))", () => {
  it.each<[string, string, string]>([
    ["2024-07-01T12:34:56Z", "2024-07-01T12:34:56Z", "2024-07-01T12:34:56.000000Z"],
    ["2024-07-01T14:34:56+02:00", "2024-07-01T12:34:56Z", "2024-07-01T12:34:56.000000Z"],
    ["2024-07-01T12:34:56.123456789Z", "2024-07-01T12:34:56Z", "2024-07-01T12:34:56.123456Z"],
    ["2024-07-01T02:04:05.1-10:30", "2024-07-01T12:34:05Z", "2024-07-01T12:34:05.100000Z"],
    ["2024-07-01T2:04:05,5Z", "2024-07-01T02:04:05Z", "2024-07-01T02:04:05.500000Z"],
  ])("%s -> %s / %s", (input, time, micro) => {
    const t = parseRFC3339(input);
    if (typeof t === "string") throw new Error(t);
    expect(formatParsedTime(t)).toBe(time);
    expect(formatParsedMicroTime(t)).toBe(micro);
  });

  it.each<[string, string]>([
    ["garbage", `parsing time "garbage" as ${L}: cannot parse "garbage" as "2006"`],
    ["", `parsing time "" as ${L}: cannot parse "" as "2006"`],
    ["2024/07/01T00:00:00Z", `parsing time "2024/07/01T00:00:00Z" as ${L}: cannot parse "/07/01T00:00:00Z" as "-"`],
    ["2024-07-01 00:00:00Z", `parsing time "2024-07-01 00:00:00Z" as ${L}: cannot parse " 00:00:00Z" as "T"`],
    ["2024-07-01T00:00:00", `parsing time "2024-07-01T00:00:00" as ${L}: cannot parse "" as "Z07:00"`],
    ["2024-13-01T00:00:00Z", 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ["2024-02-30T00:00:00Z", 'parsing time "2024-02-30T00:00:00Z": day out of range'],
    ["2024-07-01T24:00:00Z", 'parsing time "2024-07-01T24:00:00Z": hour out of range'],
    ["2024-07-01T00:00:00Zjunk", 'parsing time "2024-07-01T00:00:00Zjunk": extra text: "junk"'],
  ])("%j is Go's error", (input, want) => {
    expect(parseRFC3339(input)).toBe(want);
  });
});

describe("time schemas", () => {
  it("store metav1.Time in UTC with second precision and MicroTime with microseconds", () => {
    expect(TimeSchema.parse("2024-07-01T14:34:56.789+02:00")).toBe("2024-07-01T12:34:56Z");
    expect(MicroTimeSchema.parse("2024-07-01T14:34:56.1+02:00")).toBe("2024-07-01T12:34:56.100000Z");
  });

  it("reject an unparsable time with Go's message, marked as a decoder error", () => {
    const r = TimeSchema.safeParse("garbage");
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({
      code: "custom",
      message: `parsing time "garbage" as ${L}: cannot parse "garbage" as "2006"`,
      params: { goDecodeError: true },
    });
  });

  it("decode an absent or null Condition.lastTransitionTime as Go's zero time (null)", () => {
    const base = { type: "Ready", status: "True", reason: "r", message: "" };
    expect(ConditionSchema.parse(base).lastTransitionTime).toBeNull();
    expect(ConditionSchema.parse({ ...base, lastTransitionTime: null }).lastTransitionTime).toBeNull();
    expect(ConditionSchema.parse({ ...base, lastTransitionTime: "2024-07-01T12:34:56+00:00" }).lastTransitionTime).toBe(
      "2024-07-01T12:34:56Z",
    );
  });
});
