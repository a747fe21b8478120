/** Upstream pkg/apiserver/schema/cel/compilation_test.go TestCelCompilation (the rows expressible without declared types). */
import { describe, expect, it } from "vitest";
import type { ValidationRule } from "@servicenet/api/apiextensions/v1";
import { compileRule } from "./compilation.ts";

describe("TestCelCompilation", () => {
  it.each<[string, ValidationRule, { error?: RegExp; messageExpressionError?: RegExp; usesOldSelf?: boolean }]>([
    ["valid object", { rule: "self.minReplicas < self.maxReplicas" }, {}],
    ["expression must evaluate to bool", { rule: "42" }, { error: /^cel expression must evaluate to a bool$/ }],
    ["syntax error", { rule: "self.x ==" }, { error: /^compilation failed: ERROR: <input>:1:10: Syntax error: / }],
    [
      "undeclared reference",
      { rule: "other.x == 1" },
      { error: /^compilation failed: ERROR: <input>:1:1: undeclared reference to 'other' \(in container ''\)/ },
    ],
    ["messageExpression inclusion", { rule: "self.startsWith('s')", messageExpression: `"scoped field should start with 's'"` }, {}],
    [
      "messageExpression must evaluate to a string",
      { rule: "self == 5", messageExpression: "42" },
      { messageExpressionError: /^messageExpression must evaluate to a string$/ },
    ],
    [
      "messageExpression syntax error",
      { rule: "self < 32.0", messageExpression: `"abc` },
      { messageExpressionError: /^messageExpression compilation failed: ERROR: <input>:1:1: Syntax error: / },
    ],
    ["transition rule identified", { rule: "self > oldSelf" }, { usesOldSelf: true }],
    ["a rule without oldSelf is not a transition rule", { rule: "self.all(x, x > 0)" }, { usesOldSelf: false }],
  ])("%s", (_n, rule, want) => {
    const r = compileRule(rule);
    if (want.error) expect(r.error?.detail).toMatch(want.error);
    else expect(r.error).toBeUndefined();
    if (want.messageExpressionError) expect(r.messageExpressionError?.detail).toMatch(want.messageExpressionError);
    else expect(r.messageExpressionError).toBeUndefined();
    if (want.usesOldSelf !== undefined) expect(r.usesOldSelf).toBe(want.usesOldSelf);
    if (!want.error) expect(r.program).toBeDefined();
  });
});
