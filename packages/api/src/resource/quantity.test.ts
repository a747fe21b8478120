import { describe, expect, it } from "vitest";
import { parseQuantityMilli } from "./quantity.ts";

describe("parseQuantityMilli (resource.Quantity MilliValue)", () => {
  it.each([
    ["2", 2000],
    ["1500m", 1500],
    ["0.5", 500],
    ["1.25", 1250],
    ["100u", 1],
    ["1k", 1_000_000],
    ["1Ki", 1_024_000],
    ["1e3", 1_000_000],
    ["0", 0],
  ])("%s is %i milli", (s, want) => {
    expect(parseQuantityMilli(s)).toBe(want);
  });

  it.each(["", "abc", "1x", "1.2.3", "m"])("%j is refused", (s) => {
    expect(parseQuantityMilli(s)).toBeNull();
  });
});
