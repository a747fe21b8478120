/** Upstream pkg/apiserver/schema/cel/compilation_test.go TestCelCompilation (the rows expressible without declared types). */
import { describe, expect, it } from "vitest";
import type { ValidationRule } from "@servicenet/api/apiextensions/v1";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { compileRule, compileRules } from "./compilation.ts";

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

/** TestCelCompilation's typed rows: `self` declared as the schema's types (model/schemas.go SchemaDeclType). */
describe("TestCelCompilation with the schema's types", () => {
  const schema: JSONSchemaProps = {
    type: "object",
    properties: {
      name: { type: "string" },
      replicas: { type: "integer" },
      price: { type: "number" },
      tags: { type: "array", items: { type: "string" } },
      labels: { type: "object", additionalProperties: { type: "object", properties: { on: { type: "boolean" } } } },
      sub: { type: "object", properties: { x: { type: "string" } } },
      port: { "x-kubernetes-int-or-string": true },
      free: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    },
  };
  it.each<[string, string, RegExp | undefined]>([
    [
      "string plus int",
      "self.name + 1 == 'a'",
      /^compilation failed: ERROR: <input>:1:\d+: found no matching overload for '_[+=]+_' applied to/,
    ],
    [
      "double plus int",
      "self.price + 1 > 0.0",
      /^compilation failed: ERROR: <input>:1:12: found no matching overload for '_\+_' applied to '\(double, int\)'/,
    ],
    ["undefined field", "self.nope == 1", /^compilation failed: ERROR: <input>:1:5: undefined field 'nope'/],
    ["undefined field of a map's value", "self.labels['a'].off", /undefined field 'off'/],
    ["a string is not a bool", "self.name", /^cel expression must evaluate to a bool$/],
    ["numbers compare across types", "self.replicas > 1 && self.price > 1 && self.price == 0", undefined],
    ["list items are typed", "self.tags.all(t, t.startsWith('a'))", undefined],
    ["map values are typed", "self.labels.all(k, self.labels[k].on)", undefined],
    ["objects compare", "self.sub == oldSelf.sub", undefined],
    ["int-or-string is dyn", "self.port == 1 || self.port == 'http'", undefined],
    ["preserved unknown fields are dyn", "self.free.a.b == 1", undefined],
    ["has on a typed field", "has(self.sub.x) && self.name.matches('^a')", undefined],
  ])("%s", (_n, rule, want) => {
    const [r] = compileRules(schema, [{ rule }]);
    if (want) expect(r!.error?.detail).toMatch(want);
    else expect(r!.error).toBeUndefined();
  });

  it("a messageExpression of another type than string", () => {
    const [r] = compileRules(schema, [{ rule: "true", messageExpression: "self.replicas" }]);
    expect(r!.messageExpressionError?.detail).toBe("messageExpression must evaluate to a string");
  });
});
