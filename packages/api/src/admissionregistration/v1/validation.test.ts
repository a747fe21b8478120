/**
 * Cases of pkg/apis/admissionregistration/validation/validation_test.go
 * (TestValidateValidatingAdmissionPolicy, TestValidateValidatingAdmissionPolicyBinding), on
 * defaulted objects.
 */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/index.ts";
import { setDefaultsValidatingAdmissionPolicy, setDefaultsValidatingAdmissionPolicyBinding } from "./defaults.ts";
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from "./types.ts";
import { validateValidatingAdmissionPolicy, validateValidatingAdmissionPolicyBinding, type ExpressionCompiler } from "./validation.ts";

const rule = { operations: ["CREATE"], apiGroups: ["a"], apiVersions: ["a"], resources: ["a"] };

function policy(spec: Partial<ValidatingAdmissionPolicy["spec"]>, name = "config"): ValidatingAdmissionPolicy {
  const p: ValidatingAdmissionPolicy = {
    metadata: { name },
    spec: { validations: [{ expression: "object.x < 100" }], matchConstraints: { resourceRules: [rule] }, ...spec },
  };
  setDefaultsValidatingAdmissionPolicy(p);
  return p;
}

const errorsOf = (p: ValidatingAdmissionPolicy, compile?: ExpressionCompiler) =>
  validateValidatingAdmissionPolicy(p, compile).map(fieldErrorString);

describe("TestValidateValidatingAdmissionPolicy", () => {
  it.each([
    {
      name: "metadata.name validation",
      p: policy({}, "!!!!"),
      err: 'metadata.name: Invalid value: "!!!!": a lowercase RFC 1123 subdomain',
    },
    {
      name: "failure policy validation",
      p: policy({ failurePolicy: "other" }),
      err: 'spec.failurePolicy: Unsupported value: "other": supported values: "Fail", "Ignore"',
    },
    {
      name: "API version is required in ParamKind",
      p: policy({ paramKind: { kind: "Example", apiVersion: "test.example.com" } }),
      err: 'spec.paramKind.apiVersion: Invalid value: "test.example.com": a DNS-1035 label',
    },
    {
      name: "API kind is required in ParamKind",
      p: policy({ paramKind: { apiVersion: "test.example.com/v1" } }),
      err: "spec.paramKind.kind: Required value",
    },
    {
      name: "API version format in ParamKind",
      p: policy({ paramKind: { kind: "Example", apiVersion: "test.example.com/!!!" } }),
      err: 'spec.paramKind.apiVersion: Invalid value: "!!!": a DNS-1035 label',
    },
    { name: "matchConstraints is required", p: policy({ matchConstraints: undefined }), err: "spec.matchConstraints: Required value" },
    {
      name: "matchConstraints.resourceRules is required",
      p: policy({ matchConstraints: {} }),
      err: "spec.matchConstraints.resourceRules: Required value",
    },
    {
      name: "validations or auditAnnotations are required",
      p: policy({ validations: [] }),
      err: "spec.validations: Required value: validations or auditAnnotations must contain at least one item",
    },
    {
      name: "invalid expression",
      p: policy({ validations: [{ expression: "" }] }),
      err: "spec.validations[0].expression: Required value: expression is not specified",
    },
    {
      name: "invalid reason",
      p: policy({ validations: [{ expression: "true", reason: "other" }] }),
      err: 'spec.validations[0].reason: Unsupported value: "other": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"',
    },
    {
      name: "message must not contain line breaks",
      p: policy({ validations: [{ expression: "true", message: "a\nb" }] }),
      err: 'spec.validations[0].message: Invalid value: "a\\nb": message must not contain line breaks',
    },
    {
      name: "operation must be either create/update/delete/connect",
      p: policy({ matchConstraints: { resourceRules: [{ ...rule, operations: ["PATCH"] }] } }),
      err: 'spec.matchConstraints.resourceRules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
    },
    {
      name: "wildcard operation cannot be mixed with other strings",
      p: policy({ matchConstraints: { resourceRules: [{ ...rule, operations: ["CREATE", "*"] }] } }),
      err: 'spec.matchConstraints.resourceRules[0].operations: Invalid value: []admissionregistration.OperationType{"CREATE", "*"}: if \'*\' is present, must not specify other operations',
    },
    {
      name: "resource a/* cannot mix with a/x",
      p: policy({ matchConstraints: { resourceRules: [{ ...rule, resources: ["a/*", "a/x"] }] } }),
      err: "spec.matchConstraints.resourceRules[0].resources[1]: Invalid value: \"a/x\": if 'a/*' is present, must not specify a/x",
    },
    {
      name: "resource */* cannot mix with other resources",
      p: policy({ matchConstraints: { resourceRules: [{ ...rule, resources: ["*/*", "a"] }] } }),
      err: 'spec.matchConstraints.resourceRules[0].resources: Invalid value: []string{"*/*", "a"}: if \'*/*\' is present, must not specify other resources',
    },
    {
      name: "invalid scope",
      p: policy({ matchConstraints: { resourceRules: [{ ...rule, scope: "Other" }] } }),
      err: 'spec.matchConstraints.resourceRules[0].scope: Unsupported value: "Other": supported values: "*", "Cluster", "Namespaced"',
    },
    {
      name: "matchCondition names must be unique",
      p: policy({
        matchConditions: [
          { name: "a", expression: "true" },
          { name: "a", expression: "true" },
        ],
      }),
      err: 'spec.matchConditions[1].name: Duplicate value: "a"',
    },
    {
      name: "variable name must be a CEL identifier",
      p: policy({ variables: [{ name: "a-b", expression: "1" }] }),
      err: 'spec.variables[0].name: Invalid value: "a-b": name is not a valid CEL identifier',
    },
  ])("$name", ({ p, err }) => {
    expect(errorsOf(p).join("\n")).toContain(err);
  });

  it("a valid policy has no errors", () => {
    expect(errorsOf(policy({}))).toEqual([]);
  });

  it("reports the compiler's errors at the expression", () => {
    const compile: ExpressionCompiler = (e) =>
      e === "bad"
        ? { type: "Invalid", detail: "compilation failed: ERROR: <input>:1:1: undeclared reference to 'bad' (in container '')" }
        : undefined;
    expect(errorsOf(policy({ validations: [{ expression: "bad" }] }), compile)).toEqual([
      "spec.validations[0].expression: Invalid value: \"bad\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'bad' (in container '')",
    ]);
  });
});

function binding(spec: Partial<ValidatingAdmissionPolicyBinding["spec"]>): ValidatingAdmissionPolicyBinding {
  const b: ValidatingAdmissionPolicyBinding = {
    metadata: { name: "config" },
    spec: { policyName: "xyzlimit-scale.example.com", validationActions: ["Deny"], ...spec },
  };
  setDefaultsValidatingAdmissionPolicyBinding(b);
  return b;
}

describe("TestValidateValidatingAdmissionPolicyBinding", () => {
  it.each([
    { name: "policyName is required", b: binding({ policyName: "" }), err: "spec.policyName: Required value" },
    {
      name: "paramRef needs a name or a selector",
      b: binding({ paramRef: { parameterNotFoundAction: "Deny" } }),
      err: "spec.paramRef: Required value: one of name or selector must be specified",
    },
    {
      name: "paramRef name and selector are mutually exclusive",
      b: binding({ paramRef: { name: "a", selector: {}, parameterNotFoundAction: "Deny" } }),
      err: "spec.paramRef.name: Forbidden: name and selector are mutually exclusive",
    },
    {
      name: "parameterNotFoundAction is required",
      b: binding({ paramRef: { name: "a" } }),
      err: "spec.paramRef.parameterNotFoundAction: Required value",
    },
    {
      name: "validationActions must contain supported values",
      b: binding({ validationActions: ["illegal"] }),
      err: 'spec.validationActions[0]: Unsupported value: "illegal": supported values: "Audit", "Deny", "Warn"',
    },
    {
      name: "validationActions must be unique",
      b: binding({ validationActions: ["Deny", "Deny"] }),
      err: 'spec.validationActions[1]: Duplicate value: "Deny"',
    },
    {
      name: "validationActions must not contain both Deny and Warn",
      b: binding({ validationActions: ["Deny", "Warn"] }),
      err: 'spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn"}: must not contain both Deny and Warn',
    },
    {
      name: "validationActions are required",
      b: binding({ validationActions: [] }),
      err: "spec.validationActions: Required value: at least one validation action is required",
    },
    {
      name: "matchResources are validated (upstream's path spelling)",
      b: binding({ matchResources: { resourceRules: [{ ...rule, operations: [] }] } }),
      err: "spec.matchResouces.resourceRules[0].operations: Required value",
    },
  ])("$name", ({ b, err }) => {
    expect(validateValidatingAdmissionPolicyBinding(b).map(fieldErrorString).join("\n")).toContain(err);
  });

  it("a valid binding has no errors", () => {
    expect(validateValidatingAdmissionPolicyBinding(binding({ paramRef: { name: "p", parameterNotFoundAction: "Allow" } }))).toEqual([]);
  });
});
