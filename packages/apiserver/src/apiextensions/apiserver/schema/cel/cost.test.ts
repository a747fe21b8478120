/**
 * Static cost estimates of rules over schemas with and without bounds (upstream
 * pkg/apis/apiextensions/validation/validation_test.go TestCostEstimation and
 * pkg/apiserver/schema/cel/compilation_test.go TestCostEstimation, in orders of magnitude: the
 * limits a rule is held to are StaticEstimatedCostLimit, 10,000,000, per evaluation).
 */
import { describe, expect, it } from "vitest";
import { staticEstimatedCostLimit, type JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { compileRules } from "./compilation.ts";
import { maxCardinality, minSerializedSize } from "./cost.ts";

const list = (bounds: { maxItems?: number; maxLength?: number } = {}): JSONSchemaProps => ({
  type: "object",
  properties: {
    name: { type: "string", ...(bounds.maxLength !== undefined ? { maxLength: bounds.maxLength } : {}) },
    replicas: { type: "integer" },
    tags: {
      type: "array",
      ...(bounds.maxItems !== undefined ? { maxItems: bounds.maxItems } : {}),
      items: { type: "string", ...(bounds.maxLength !== undefined ? { maxLength: bounds.maxLength } : {}) },
    },
  },
});

const cost = (schema: JSONSchemaProps, rule: string): number => compileRules(schema, [{ rule }])[0]!.maxCost!;

describe("TestCostEstimation", () => {
  it.each<[string, JSONSchemaProps, string, "under" | "over"]>([
    ["scalar comparison", list(), "self.replicas > 1", "under"],
    ["regex over an unbounded string", list(), "self.name.matches('^[a-z]+$')", "under"],
    ["all() over an unbounded list of unbounded strings", list(), "self.tags.all(t, t.matches('^[a-z]+$'))", "over"],
    [
      "all() over a bounded list of bounded strings",
      list({ maxItems: 10, maxLength: 64 }),
      "self.tags.all(t, t.matches('^[a-z]+$'))",
      "under",
    ],
    // checker/cost.go: startsWith costs the prefix's length, so ratcheting_test.go's rule passes.
    ["startsWith on every string of an unbounded list", list(), "self.tags.all(t, t.startsWith('k8s'))", "under"],
    ["quadratic over an unbounded list", list(), "self.tags.all(a, self.tags.exists(b, a == b))", "over"],
    ["quadratic over a bounded list", list({ maxItems: 20, maxLength: 63 }), "self.tags.all(a, self.tags.exists(b, a == b))", "under"],
  ])("%s", (_n, schema, rule, want) => {
    const c = cost(schema, rule);
    if (want === "over") expect(c).toBeGreaterThan(staticEstimatedCostLimit);
    else expect(c).toBeLessThanOrEqual(staticEstimatedCostLimit);
  });

  it("grows with maxItems and maxLength", () => {
    const rule = "self.tags.all(t, t.contains('x'))";
    expect(cost(list({ maxItems: 10, maxLength: 10 }), rule)).toBeLessThan(cost(list({ maxItems: 100, maxLength: 10 }), rule));
    expect(cost(list({ maxItems: 10, maxLength: 10 }), rule)).toBeLessThan(cost(list({ maxItems: 10, maxLength: 1000 }), rule));
  });

  it("a messageExpression has its own estimate", () => {
    const [r] = compileRules(list(), [{ rule: "true", messageExpression: "self.tags.map(t, t + '!').join(',')" }]);
    expect(r!.messageExpressionMaxCost).toBeGreaterThan(0);
  });

  it("an unbounded node's cardinality is how often its smallest value fits in a request (maxCardinality)", () => {
    expect(maxCardinality(minSerializedSize({ type: "string" }))).toBe(Math.floor((3 * 1024 * 1024) / 3));
    expect(maxCardinality(minSerializedSize({ type: "boolean" }))).toBe(Math.floor((3 * 1024 * 1024) / 5));
  });
});
