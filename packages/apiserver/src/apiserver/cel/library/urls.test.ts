/** The URLs library (library/urls.go), the cases of apiextensions-apiserver's TestValidationExpressions. */
import { describe, expect, it } from "vitest";
import { run } from "../testing.ts";

const cases: { expr: string; result?: unknown; runtimeErr?: RegExp }[] = [
  { expr: "url('https://kubernetes.io/').getScheme()", result: "https" },
  { expr: "url('https://kubernetes.io:80/').getHost()", result: "kubernetes.io:80" },
  { expr: "url('https://[::1]:80/').getHost()", result: "[::1]:80" },
  { expr: "url('https://[::1]:80/').getHostname()", result: "::1" },
  { expr: "url('https://kubernetes.io:80/').getHostname()", result: "kubernetes.io" },
  { expr: "url('https://kubernetes.io:80/').getPort()", result: "80" },
  { expr: "url('https://kubernetes.io/').getPort()", result: "" },
  { expr: "url('https://kubernetes.io/a%20b').getEscapedPath()", result: "/a%20b" },
  { expr: "url('https://kubernetes.io').getEscapedPath()", result: "" },
  { expr: "url('https://example.com/?k=v&k=v2&j=x%20y').getQuery()", result: { k: ["v", "v2"], j: ["x y"] } },
  { expr: "url('/absolute/path').getScheme()", result: "" },
  { expr: "isURL('https://kubernetes.io/')", result: true },
  { expr: "isURL('/absolute/path')", result: true },
  { expr: "isURL('../relative-path')", result: false },
  { expr: "isURL('https://kubernetes.io:a/')", result: false },
  {
    expr: "url('../relative-path')",
    runtimeErr: /^URL parse error during conversion from string: parse "..\/relative-path": invalid URI for request/,
  },
];

describe("urls library", () => {
  it.each(cases)("$expr", ({ expr, result, runtimeErr }) => {
    const got = run(expr);
    if (runtimeErr) expect(got).toMatchObject({ runtimeErr: expect.stringMatching(runtimeErr) });
    else expect(got).toEqual({ value: result });
  });
});
