// Upstream's typechecking_test.go: TestExtractTypeNames and TestTypeCheck, with a schema resolver
// that returns one schema for every kind and a RESTMapper that knows Deployments, Pods and Reproducers.
import { describe, expect, it } from "vitest";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import type { NamedRuleWithOperations, ValidatingAdmissionPolicy } from "@servicenet/api/admissionregistration/v1";
import { TypeChecker } from "./typechecking.ts";
import { typesToCheck, type KindsFor } from "./types-to-check.ts";

const kinds: Record<string, string> = {
  "apps/v1/deployments": "Deployment",
  "/v1/pods": "Pod",
  "example.com/v1alpha1/reproducers": "Reproducer",
};
const kindsFor: KindsFor = ({ group, version, resource }) => {
  const kind = kinds[`${group}/${version}/${resource}`];
  return kind === undefined ? [] : [{ group, version, kind }];
};

const rule = (apiGroups: string[], apiVersions: string[], resources: string[]): NamedRuleWithOperations => ({
  apiGroups,
  apiVersions,
  resources,
});
const policy = (spec: ValidatingAdmissionPolicy["spec"]): ValidatingAdmissionPolicy => ({ metadata: {}, spec });
const deployments = { resourceRules: [rule(["apps"], ["v1"], ["deployments"])] };

describe("TestExtractTypeNames", () => {
  it.each<[string, ValidatingAdmissionPolicy, string[]]>([
    ["empty", policy({}), []],
    ["specific", policy({ matchConstraints: deployments }), ["apps/v1/Deployment"]],
    [
      "multiple",
      policy({ matchConstraints: { resourceRules: [rule(["apps"], ["v1"], ["deployments"]), rule([""], ["v1"], ["pods"])] } }),
      ["/v1/Pod", "apps/v1/Deployment"],
    ],
    ["all resources", policy({ matchConstraints: { resourceRules: [rule(["apps"], ["v1"], ["*"])] } }), []],
    ["sub resources", policy({ matchConstraints: { resourceRules: [rule(["apps"], ["v1"], ["pods/*"])] } }), []],
    [
      "mixtures",
      policy({ matchConstraints: { resourceRules: [rule(["apps"], ["v1"], ["deployments"]), rule(["apps"], ["*"], ["deployments"])] } }),
      ["apps/v1/Deployment"],
    ],
  ])("%s", (_name, p, want) => {
    expect(typesToCheck(p, kindsFor).map((g) => `${g.group}/${g.version}/${g.kind}`)).toEqual(want);
  });
});

const object = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({ type: "object", properties });
const str: JSONSchemaProps = { type: "string" };
const int64: JSONSchemaProps = { type: "integer", format: "int64" };

const deploymentPolicy = policy({ validations: [{ expression: "object.foo == 'bar'" }], matchConstraints: deployments });
const withMessageExpression = policy({
  validations: [{ expression: "object.foo == 'bar'", messageExpression: "object.foo + 114514" }],
  matchConstraints: deployments,
});
const variablesPolicy = (variables: { name: string; expression: string }[], expression: string) =>
  policy({ variables, validations: [{ expression }], matchConstraints: deployments });

describe("TestTypeCheck", () => {
  it.each<[string, ValidatingAdmissionPolicy, JSONSchemaProps | undefined, { fieldRef?: string; contains?: string; length?: number }]>([
    ["empty", policy({}), undefined, { length: 0 }],
    ["unresolved schema", deploymentPolicy, undefined, { length: 0 }],
    ["passed check", deploymentPolicy, object({ foo: str }), { length: 0 }],
    [
      "undefined field",
      deploymentPolicy,
      object({ bar: str }),
      { fieldRef: "spec.validations[0].expression", contains: "undefined field 'foo'" },
    ],
    [
      "field type mismatch",
      deploymentPolicy,
      object({ foo: int64 }),
      { fieldRef: "spec.validations[0].expression", contains: "found no matching overload" },
    ],
    [
      "params",
      policy({
        paramKind: { apiVersion: "v1", kind: "DoesNotMatter" },
        validations: [{ expression: "object.foo == params.bar" }],
        matchConstraints: deployments,
      }),
      object({ foo: str }),
      { fieldRef: "spec.validations[0].expression", contains: "undefined field 'bar'" },
    ],
    [
      "params with untyped schema",
      policy({
        paramKind: { apiVersion: "v1", kind: "Config" },
        validations: [{ expression: "params != null" }],
        matchConstraints: deployments,
      }),
      {},
      { length: 0 },
    ],
    [
      "multiple expressions",
      policy({
        validations: [{ expression: "object.foo == 'bar'" }, { expression: "object.bar == 'foo'" }],
        matchConstraints: deployments,
      }),
      object({ foo: str }),
      { fieldRef: "spec.validations[1].expression", length: 1 },
    ],
    ["message expressions", withMessageExpression, object({ foo: str }), { fieldRef: "spec.validations[0].messageExpression", length: 1 }],
    [
      "additionalProperties: true",
      policy({
        validations: [{ expression: "has(object.spec.text)" }],
        matchConstraints: { resourceRules: [rule(["example.com"], ["v1alpha1"], ["reproducers"])] },
      }),
      object({ spec: object({ text: str }), status: object({ problematicProperty: { type: "object", additionalProperties: true } }) }),
      { length: 0 },
    ],
    ["schema without type", policy({ validations: [{ expression: "true" }], matchConstraints: deployments }), {}, { length: 0 }],
    ["variables valid", variablesPolicy([{ name: "works", expression: "true" }], "variables.works"), object({ foo: int64 }), { length: 0 }],
    [
      "variables missing field",
      variablesPolicy([{ name: "works", expression: "true" }], "variables.nonExisting"),
      object({ foo: int64 }),
      { length: 1, fieldRef: "spec.validations[0].expression", contains: "undefined field 'nonExisting'" },
    ],
    [
      "variables field wrong type",
      variablesPolicy([{ name: "name", expression: "'something'" }], "variables.name == object.foo"),
      object({ foo: int64 }),
      {
        length: 1,
        fieldRef: "spec.validations[0].expression",
        contains: "found no matching overload for '_==_' applied to '(string, int)'",
      },
    ],
    [
      "authorizer",
      policy({
        validations: [
          {
            expression:
              "authorizer.group('apps').resource('deployments').namespace(object.foo).check('patch').allowed() && authorizer.requestResource.check('get').allowed()",
          },
        ],
        matchConstraints: deployments,
      }),
      object({ foo: str }),
      { length: 0 },
    ],
    [
      "authorizer misused",
      policy({ validations: [{ expression: "authorizer.group('apps').check('get').allowed()" }], matchConstraints: deployments }),
      object({ foo: str }),
      { length: 1, fieldRef: "spec.validations[0].expression", contains: "found no matching overload for 'check'" },
    ],
  ])("%s", (_name, p, schema, want) => {
    const checker = new TypeChecker({ resolveSchema: () => schema }, kindsFor);
    const warnings = checker.check(p);
    if (want.length !== undefined) expect(warnings).toHaveLength(want.length);
    if (want.fieldRef !== undefined) expect(warnings[0]?.fieldRef).toBe(want.fieldRef);
    if (want.contains !== undefined) expect(warnings[0]?.warning).toContain(want.contains);
  });

  it("words a warning as upstream: the kind, cel-go's issue and a newline", () => {
    const p = policy({ validations: [{ expression: "object.replicas > 1" }], matchConstraints: deployments });
    const warnings = new TypeChecker({ resolveSchema: () => object({ spec: object({ replicas: int64 }) }) }, kindsFor).check(p);
    expect(warnings).toEqual([
      {
        fieldRef: "spec.validations[0].expression",
        warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'replicas'\n | object.replicas > 1\n | ......^\n",
      },
    ]);
  });
});
