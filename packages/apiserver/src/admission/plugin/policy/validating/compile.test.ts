/**
 * Where `authorizer` is declared (plugin.go compilePolicy and validation.go): validations,
 * matchConditions, variables and auditAnnotations have it; messageExpressions do not.
 */
import { validateValidatingAdmissionPolicy, type ValidatingAdmissionPolicy } from "@servicenet/api/admissionregistration/v1";
import { describe, expect, it } from "vitest";
import { compileAdmissionExpression, compilePolicy } from "./compile.ts";

const check = "authorizer.group('').resource('services').check('patch').allowed()";
const policy = (validation: { expression: string; messageExpression?: string }): ValidatingAdmissionPolicy => ({
  metadata: { name: "p" },
  spec: {
    failurePolicy: "Fail",
    // As defaulting leaves them (validation runs on the defaulted object).
    matchConstraints: {
      matchPolicy: "Equivalent",
      namespaceSelector: {},
      objectSelector: {},
      resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["services"] }],
    },
    matchConditions: [{ name: "m", expression: check }],
    variables: [{ name: "v", expression: check }],
    validations: [validation],
    auditAnnotations: [{ key: "k", valueExpression: `string(${check})` }],
  },
});

describe("the authorizer variable in a policy's expressions", () => {
  it("compiles in matchConditions, variables, validations and auditAnnotations", () => {
    const c = compilePolicy(policy({ expression: check }));
    expect(c.matchConditions[0]?.program.error).toBeUndefined();
    expect(c.variables[0]?.program.error).toBeUndefined();
    expect(c.validations[0]?.program.error).toBeUndefined();
    expect(c.auditAnnotations[0]?.program.error).toBeUndefined();
    expect(validateValidatingAdmissionPolicy(policy({ expression: check }), compileAdmissionExpression)).toEqual([]);
  });

  it("is undeclared in a messageExpression, at validation and at compilation", () => {
    const p = policy({ expression: "true", messageExpression: `string(${check})` });
    expect(compilePolicy(p).validations[0]?.messageProgram?.error?.detail).toContain("undeclared reference to 'authorizer'");
    const errs = validateValidatingAdmissionPolicy(p, compileAdmissionExpression);
    expect(errs.map((e) => e.field)).toEqual(["spec.validations[0].messageExpression"]);
    expect(errs[0]?.detail).toContain("undeclared reference to 'authorizer'");
  });
});

// environment/base.go adds library.AuthzSelectors only when AuthorizeWithSelectors is on.
describe("fieldSelector() and labelSelector() under the AuthorizeWithSelectors gate", () => {
  const selecting =
    "authorizer.group('').resource('services').fieldSelector('spec.type=NodePort').labelSelector('app=web').check('list').allowed()";

  it("compile with the gate on (the default)", () => {
    expect(compilePolicy(policy({ expression: selecting })).validations[0]?.program.error).toBeUndefined();
    expect(
      compilePolicy(policy({ expression: selecting }), { authorizeWithSelectors: true }).validations[0]?.program.error,
    ).toBeUndefined();
  });

  it("do not compile with the gate off; the rest of the authorizer library does", () => {
    const c = compilePolicy(policy({ expression: selecting }), { authorizeWithSelectors: false });
    expect(c.validations[0]?.program.error?.detail).toMatch(/^compilation failed: .*fieldSelector/);
    expect(c.matchConditions[0]?.program.error).toBeUndefined();
  });
});
