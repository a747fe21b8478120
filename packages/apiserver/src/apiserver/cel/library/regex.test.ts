/** The regex library (library/regex.go), the cases of apiextensions-apiserver's TestValidationExpressions. */
import { describe, expect, it } from "vitest";
import { run } from "../testing.ts";

const cases: { expr: string; result?: unknown; runtimeErr?: RegExp }[] = [
  { expr: "'abc 123'.find('[0-9]+')", result: "123" },
  { expr: "'abc 123'.find('xyz')", result: "" },
  { expr: "'123 abc 456'.findAll('[0-9]+')", result: ["123", "456"] },
  { expr: "'123 abc 456'.findAll('[0-9]+', 1)", result: ["123"] },
  { expr: "'123 abc 456'.findAll('[0-9]+', 0)", result: [] },
  { expr: "'123 abc 456'.findAll('xyz')", result: [] },
  { expr: "'abc'.find('[')", runtimeErr: /^error parsing regexp/ },
];

describe("regex library", () => {
  it.each(cases)("$expr", ({ expr, result, runtimeErr }) => {
    const got = run(expr);
    if (runtimeErr) expect(got).toMatchObject({ runtimeErr: expect.stringMatching(runtimeErr) });
    else expect(got).toEqual({ value: result });
  });
});
