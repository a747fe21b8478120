import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { describe, expect, it } from "vitest";
import { toStructuralOpenAPIV2 } from "./conversion.ts";

// The rules of ToStructuralOpenAPIV2 (conversion.go), one case each.
const cases: { name: string; in: JSONSchemaProps; want: JSONSchemaProps }[] = [
  {
    name: "junctors are dropped",
    in: { type: "string", anyOf: [{ pattern: "a" }], allOf: [{ pattern: "b" }], oneOf: [{ pattern: "c" }], not: { pattern: "d" } },
    want: { type: "string" },
  },
  {
    name: "nullable drops type, items and properties",
    in: { type: "object", nullable: true, properties: { a: { type: "string" } }, description: "d" },
    want: { description: "d" },
  },
  {
    name: "nullable property is no longer required",
    in: { type: "object", required: ["a", "b"], properties: { a: { type: "string", nullable: true }, b: { type: "string" } } },
    want: { type: "object", required: ["b"], properties: { a: {}, b: { type: "string" } } },
  },
  {
    name: "the last required field going drops required",
    in: { type: "object", required: ["a"], properties: { a: { type: "integer", nullable: true } } },
    want: { type: "object", properties: { a: {} } },
  },
  {
    name: "nullable additionalProperties clears required",
    in: { type: "object", required: ["a"], additionalProperties: { type: "string", nullable: true } },
    want: { type: "object", additionalProperties: {} },
  },
  {
    name: "preserve-unknown-fields object loses type and properties",
    in: { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: { a: { type: "string" } } },
    want: { "x-kubernetes-preserve-unknown-fields": true },
  },
  {
    name: "array whose items were dropped loses its type",
    in: { type: "array", "x-kubernetes-preserve-unknown-fields": true, items: { type: "string" } },
    want: { "x-kubernetes-preserve-unknown-fields": true },
  },
  {
    name: "nested schemas are converted",
    in: {
      type: "object",
      properties: { list: { type: "array", items: { type: "object", properties: { x: { type: "string", nullable: true } } } } },
    },
    want: { type: "object", properties: { list: { type: "array", items: { type: "object", properties: { x: {} } } } } },
  },
  {
    name: "value validations and extensions are kept",
    in: { type: "integer", minimum: 1, maximum: 5, "x-kubernetes-validations": [{ rule: "self > 0" }] },
    want: { type: "integer", minimum: 1, maximum: 5, "x-kubernetes-validations": [{ rule: "self > 0" }] },
  },
];

describe("ToStructuralOpenAPIV2", () => {
  it.each(cases)("$name", ({ in: input, want }) => {
    const copy = structuredClone(input);
    expect(toStructuralOpenAPIV2(input)).toEqual(want);
    expect(input).toEqual(copy);
  });
});
