/**
 * Ratcheting of x-kubernetes-validations (pkg/apiserver/schema/cel/validation.go validateExpressions):
 * a failure of a rule without `oldSelf` on an unchanged value is a warning, a transition rule's and
 * a compile error are errors, and an optionalOldSelf rule sees optional.none() on create.
 */
import { fieldErrorString } from "@servicenet/api";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { describe, expect, it } from "vitest";
import { validateCELRules } from "./validation.ts";

const schema: JSONSchemaProps = {
  type: "object",
  properties: {
    prefixed: { type: "string", "x-kubernetes-validations": [{ rule: "self.startsWith('k8s')", message: "needs k8s prefix" }] },
    frozen: { type: "string", "x-kubernetes-validations": [{ rule: "oldSelf == 'a' && self == 'a'", message: "stays a" }] },
    fresh: {
      type: "string",
      "x-kubernetes-validations": [{ rule: "!oldSelf.hasValue()", message: "oldSelf must be null", optionalOldSelf: true }],
    },
    other: { type: "string" },
  },
};

const run = (obj: unknown, old?: unknown) => {
  const warnings: string[] = [];
  const errs = validateCELRules(schema, obj, old, warnings).map(fieldErrorString);
  return { errs, warnings };
};

describe("validateExpressions ratcheting", () => {
  it("an unchanged value's failure of a rule without oldSelf is a warning", () => {
    expect(run({ prefixed: "abc", other: "y" }, { prefixed: "abc", other: "x" })).toEqual({
      errs: [],
      warnings: ['prefixed: Invalid value: "string": needs k8s prefix'],
    });
  });

  it("a changed value's failure is an error", () => {
    expect(run({ prefixed: "abd" }, { prefixed: "abc" }).errs).toEqual(['prefixed: Invalid value: "string": needs k8s prefix']);
  });

  it("transition rules are not ratcheted", () => {
    expect(run({ frozen: "b" }, { frozen: "b" })).toEqual({ errs: ['frozen: Invalid value: "string": stays a'], warnings: [] });
  });

  it("an optionalOldSelf rule sees optional.none() on create and the old value on update", () => {
    expect(run({ fresh: "x" }).errs).toEqual([]);
    expect(run({ fresh: "x" }, { fresh: "x" }).errs).toEqual(['fresh: Invalid value: "string": oldSelf must be null']);
  });

  it("rules under an object's items have no CEL type: a compile error on unchanged values too", () => {
    const s: JSONSchemaProps = {
      type: "object",
      properties: {
        backend: {
          type: "object",
          items: { type: "object", "x-kubernetes-validations": [{ rule: "has(self.replicas)" }] },
        },
      },
    };
    const obj = { backend: [{ replicas: 1 }] };
    expect(validateCELRules(s, obj, structuredClone(obj)).map(fieldErrorString)).toEqual([
      'backend[0]: Invalid value: "object": rule compiler initialization error: Failed to convert to declType for CEL validation rules',
    ]);
  });
});
