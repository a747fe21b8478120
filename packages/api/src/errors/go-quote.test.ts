import { describe, expect, it } from "vitest";
import { goQuote } from "./go-quote.ts";

describe("goQuote (strconv.Quote)", () => {
  it.each([
    ["abc", '"abc"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ["\n\t\x00\x7f", '"\\n\\t\\x00\\x7f"'],
    ["é日", '"é日"'],
    ["\u200b", '"\\u200b"'],
  ])("%j is %s", (s, want) => {
    expect(goQuote(s)).toBe(want);
  });
});
