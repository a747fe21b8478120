/**
 * The x-kubernetes-validations rows of upstream pkg/apis/apiextensions/validation/validation_test.go
 * (TestValidateCustomResourceDefinitionValidation: the rule fields, fieldPath, reason, oldSelf on
 * uncorrelatable lists and maps, TestCostEstimation's cardinality and limits) with a stand-in
 * compiler: the real one, with its CEL environment, is the apiserver's.
 */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/field-error.ts";
import { costErrorMessage, staticEstimatedCostLimit, validateSchemaCEL } from "./cel-validation.ts";
import { validFieldPath } from "./field-path.ts";
import type { JSONSchemaProps } from "./types.ts";
import { validateValidationRuleFields, type RuleCompilation, type ValidationRuleCompiler } from "./validation-rules.ts";

const at = "spec.validation.openAPIV3Schema";
const withRules = (rules: unknown[], extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: "object",
  properties: { a: { type: "string" }, m: { type: "object", additionalProperties: { type: "string" } } },
  "x-kubernetes-validations": rules,
  ...extra,
});

describe("TestValidateCustomResourceDefinitionValidation: rule fields", () => {
  it.each<[string, unknown, string[]]>([
    ["valid rule", { rule: "self.a == 'x'" }, []],
    ["empty rule", { rule: "  " }, [`${at}.x-kubernetes-validations[0].rule: Required value: rule is not specified`]],
    [
      "empty message",
      { rule: "true", message: " " },
      [`${at}.x-kubernetes-validations[0].message: Invalid value: " ": message must be non-empty if specified`],
    ],
    [
      "message with line breaks",
      { rule: "true", message: "a\nb" },
      [`${at}.x-kubernetes-validations[0].message: Invalid value: "a\\nb": message must not contain line breaks`],
    ],
    [
      "multi-line rule without a message",
      { rule: "true &&\ntrue" },
      [`${at}.x-kubernetes-validations[0].message: Required value: message must be specified if rule contains line breaks`],
    ],
    [
      "empty messageExpression",
      { rule: "true", messageExpression: " " },
      [`${at}.x-kubernetes-validations[0].messageExpression: Required value: messageExpression must be non-empty if specified`],
    ],
    [
      "unsupported reason",
      { rule: "true", reason: "FieldValueNope" },
      [
        `${at}.x-kubernetes-validations[0].reason: Unsupported value: "FieldValueNope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      ],
    ],
    ["valid fieldPath", { rule: "true", fieldPath: ".a" }, []],
    ["valid fieldPath into a map", { rule: "true", fieldPath: ".m['x.y']" }, []],
    [
      "fieldPath of no field",
      { rule: "true", fieldPath: ".b" },
      [`${at}.x-kubernetes-validations[0].fieldPath: Invalid value: ".b": fieldPath must be a valid path`],
    ],
    [
      "blank fieldPath",
      { rule: "true", fieldPath: " " },
      [
        `${at}.x-kubernetes-validations[0].fieldPath: Invalid value: " ": fieldPath must be non-empty if specified`,
        `${at}.x-kubernetes-validations[0].fieldPath: Invalid value: " ": fieldPath must be a valid path`,
      ],
    ],
  ])("%s", (_n, rule, want) => {
    expect(validateValidationRuleFields(withRules([rule]), at).map(fieldErrorString)).toEqual(want);
  });
});

describe("TestValidFieldPath", () => {
  const s = withRules([], { properties: { a: { type: "object", properties: { "b.c": { type: "string" } } } } });
  it.each<[string, string | undefined]>([
    [".a", "a"],
    [".a['b.c']", "a.b.c"],
    ["['a']", "a"],
    ["a", undefined],
    [".a.b", undefined],
    [".a[0]", undefined],
    [".a['b.c'", undefined],
  ])("%s", (p, want) => expect(validFieldPath(p, s)).toBe(want));
});

/** A compiler that marks rules naming oldSelf and costs each rule `cost`. */
const fakeCompiler =
  (cost?: number, maxCardinality?: number): ValidationRuleCompiler =>
  (_s, rules) =>
    rules.map((r): RuleCompilation => ({
      usesOldSelf: r.rule.includes("oldSelf"),
      ...(cost !== undefined ? { maxCost: cost } : {}),
      ...(maxCardinality !== undefined ? { maxCardinality } : {}),
    }));

describe("TestValidateCustomResourceDefinitionValidation: oldSelf and cost", () => {
  const rule = { rule: "self == oldSelf" };
  const list = (listType?: string): JSONSchemaProps => ({
    type: "object",
    properties: {
      l: {
        type: "array",
        maxItems: 10,
        ...(listType ? { "x-kubernetes-list-type": listType } : {}),
        ...(listType === "map" ? { "x-kubernetes-list-map-keys": ["k"] } : {}),
        items: { type: "object", properties: { k: { type: "string", "x-kubernetes-validations": [rule] } } },
      },
    },
  });
  it.each<[string, JSONSchemaProps, string[]]>([
    ["allow transition rule on list of type map", list("map"), []],
    [
      "forbid transition rule on element of list of type set",
      list("set"),
      [
        `${at}.properties[l].items.properties[k].x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.properties[l]`,
      ],
    ],
    [
      "forbid transition rule on element of list defaulting to atomic",
      list(),
      [
        `${at}.properties[l].items.properties[k].x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.properties[l]`,
      ],
    ],
    [
      "forbid transition rule under map-type atomic",
      { type: "object", "x-kubernetes-map-type": "atomic", properties: { a: { type: "string", "x-kubernetes-validations": [rule] } } },
      [
        `${at}.properties[a].x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}`,
      ],
    ],
  ])("%s", (_n, s, want) => {
    expect(validateSchemaCEL(s, at, fakeCompiler()).map(fieldErrorString)).toEqual(want);
  });

  it("multiplies a rule's cost by the maxItems above it (TestCostEstimation)", () => {
    // 10 items of cost 1,000,001 each: just over the limit.
    const errs = validateSchemaCEL(list("map"), at, fakeCompiler(1_000_001)).map(fieldErrorString);
    expect(errs).toEqual([
      `${at}.properties[l].items.properties[k].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.000001x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    ]);
    expect(validateSchemaCEL(list("map"), at, fakeCompiler(1_000_000))).toEqual([]);
  });

  it("uses the compiler's cardinality under an unbounded list, and names the schema total", () => {
    const s = list("map");
    delete s.properties!["l"]!.maxItems;
    const errs = validateSchemaCEL(s, at, fakeCompiler(100, 2_000_000)).map(fieldErrorString);
    expect(errs).toEqual([
      `${at}.properties[l].items.properties[k].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 20.0x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
      `${at}.properties[l].items.properties[k].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${at}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 2.0x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    ]);
  });

  it("words the factor as upstream's getCostErrorMessage", () => {
    expect(costErrorMessage("c", 2.5 * staticEstimatedCostLimit, staticEstimatedCostLimit)).toMatch(
      /^c exceeds budget by factor of 2\.5x /,
    );
  });
});
