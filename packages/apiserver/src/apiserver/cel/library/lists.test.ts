/**
 * The lists library (k8s.io/apiserver/pkg/cel/library/lists.go), the examples of its doc comment and
 * the list cases of apiextensions-apiserver's TestValidationExpressions ("lists" library section).
 */
import { describe, expect, it } from "vitest";
import { run } from "../testing.ts";

const cases: { expr: string; result?: unknown; runtimeErr?: RegExp; compileErr?: RegExp }[] = [
  { expr: "[1, 2, 3].isSorted()", result: true },
  { expr: "['a', 'b', 'b', 'c'].isSorted()", result: true },
  { expr: "[2.0, 1.0].isSorted()", result: false },
  { expr: "[1].isSorted()", result: true },
  { expr: "[].isSorted()", result: true },
  { expr: "[1, 3].sum()", result: 4 },
  { expr: "[1.0, 3.0].sum() == 4.0", result: true },
  { expr: "[duration('1m'), duration('1s')].sum() == duration('1m1s')", result: true },
  { expr: "[1u, 2u].sum() == 3u", result: true },
  { expr: "[1, 3].min()", result: 1 },
  { expr: "[1, 3].max()", result: 3 },
  { expr: "[].min()", runtimeErr: /^min called on empty list/ },
  { expr: "[].max()", runtimeErr: /^max called on empty list/ },
  { expr: "[1].min()", result: 1 },
  { expr: "['b', 'a', 'c'].max()", result: "c" },
  {
    expr: "[timestamp('2000-01-01T00:00:00Z'), timestamp('1999-01-01T00:00:00Z')].min() == timestamp('1999-01-01T00:00:00Z')",
    result: true,
  },
  { expr: "[1, 2, 2, 3].indexOf(2)", result: 1 },
  { expr: "['a', 'b', 'b', 'c'].lastIndexOf('b')", result: 2 },
  { expr: "[1.0].indexOf(1.1)", result: -1 },
  { expr: "[[1], [2]].indexOf([2])", result: 1 },
  { expr: "[1, 2].sum() + 'a'", compileErr: /found no matching overload for '_\+_' applied to '\(int, string\)'/ },
];

describe("lists library", () => {
  it.each(cases)("$expr", ({ expr, result, runtimeErr, compileErr }) => {
    const got = run(expr);
    if (compileErr) expect(got).toMatchObject({ compileErr: expect.stringMatching(compileErr) });
    else if (runtimeErr) expect(got).toMatchObject({ runtimeErr: expect.stringMatching(runtimeErr) });
    else expect(got).toEqual({ value: result });
  });
});
