/**
 * Upstream's Test_CostLimitForValidation and Test_CostLimitForValidationWithFeatureDisabled
 * (test/integration/apiserver/cel/validatingadmissionpolicy_test.go) over HTTP: the per-call cost
 * limit of one expression, native or of the authorizer library, in validations, variables and
 * matchConditions, and the per-policy runtime budget. StrictCostEnforcementForVAP is locked on in
 * Kubernetes 1.33, as here; the second test turns it off as upstream does, with
 * `--emulated-version 1.31 --feature-gates StrictCostEnforcementForVAP=false`, and the library's
 * authorization checks then cost one unit each (their call) instead of 350,000.
 */
import { describe, expect, it } from "vitest";
import {
  makeBinding,
  makePolicy,
  useVapHarness,
  VapHarness,
  withFailurePolicy,
  withMatchConditions,
  withNamespaceMatch,
  withValidations,
  withVariables,
  withWaitReadyConstraintAndExpression,
  type Policy,
  type Validation,
} from "./validatingadmissionpolicy-testing.ts";
import { parseFeatureGates } from "../../../../features/kube-features.ts";

const list = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]";
const nativeExpensive = `${list}.all(x, ${list}.all(y, ${list}.all(z, ${list}.all(z2, ${list}.all(z3, ${list}.all(z4, ${list}.all(z5, int('1'.find('[0-9]*')) < 100)))))))`;
const authzCheck =
  "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').allowed()";
const threeChecks = `${authzCheck} && ${authzCheck} && ${authzCheck}`;

/** generateValidationsWithAuthzCheck: `num` validations of `exp`. */
function generateValidationsWithAuthzCheck(num: number, exp: string): Validation[] {
  return Array.from({ length: num }, () => ({ expression: exp }));
}

const base = () => withFailurePolicy("Fail", withNamespaceMatch(makePolicy("validate-namespace-suffix")));

describe("Test_CostLimitForValidation", () => {
  let h: VapHarness;
  useVapHarness((x) => (h = x));

  it.each<{ name: string; policy: () => Policy; err: string; failureReason: string }>([
    {
      name: "With StrictCostEnforcementForVAP: Single expression exceeds per call cost limit for native library",
      policy: () => withValidations([{ expression: nativeExpensive }], base()),
      err: "operation cancelled: actual cost limit exceeded",
      failureReason: "Invalid",
    },
    {
      name: "With StrictCostEnforcementForVAP: Expression exceeds per call cost limit for extended library",
      policy: () => withValidations([{ expression: threeChecks }], base()),
      err: "operation cancelled: actual cost limit exceeded",
      failureReason: "Invalid",
    },
    {
      name: "With StrictCostEnforcementForVAP: Expression exceeds per call cost limit for extended library in variables",
      policy: () =>
        withVariables([{ name: "authzCheck", expression: threeChecks }], withValidations([{ expression: "variables.authzCheck" }], base())),
      err: "operation cancelled: actual cost limit exceeded",
      failureReason: "Invalid",
    },
    {
      name: "With StrictCostEnforcementForVAP: Expression exceeds per call cost limit for extended library in matchConditions",
      policy: () => withMatchConditions([{ name: "test", expression: threeChecks }], withValidations([{ expression: "true" }], base())),
      err: "operation cancelled: actual cost limit exceeded",
      failureReason: "Invalid",
    },
    {
      name: "With StrictCostEnforcementForVAP: Expression exceeds per policy cost limit for extended library",
      policy: () => withValidations(generateValidationsWithAuthzCheck(29, authzCheck), base()),
      err: "validation failed due to running out of cost budget, no further validation rules will be run",
      failureReason: "Invalid",
    },
  ])("$name", async ({ policy, err, failureReason }) => {
    await h.createPolicy(withWaitReadyConstraintAndExpression(policy()));
    await h.createAndWaitReady(makeBinding("validate-namespace-suffix-binding", "validate-namespace-suffix", ""));

    const r = await h.createNamespace("test-k8s");
    expect(r.body.message).toContain(err);
    expect(r.body.reason).toBe(failureReason);
    expect(r.status).toBe(422);
  });
});

describe("Test_CostLimitForValidationWithFeatureDisabled", () => {
  let h: VapHarness;
  // StartTestServer's "--emulated-version", "1.31", "--feature-gates", "StrictCostEnforcementForVAP=false".
  useVapHarness((x) => (h = x), {
    emulatedVersion: "1.31",
    featureGates: parseFeatureGates("StrictCostEnforcementForVAP=false", "1.31"),
  });

  it.each<{ name: string; policy: () => Policy; err?: string; failureReason?: string }>([
    {
      name: "Without StrictCostEnforcementForVAP: Single expression exceeds per call cost limit for native library",
      policy: () => withValidations([{ expression: nativeExpensive }], base()),
      err: "operation cancelled: actual cost limit exceeded",
      failureReason: "Invalid",
    },
    {
      name: "Without StrictCostEnforcementForVAP: Expression does not exceed per call cost limit for extended library",
      policy: () => withValidations([{ expression: threeChecks }], base()),
    },
    {
      name: "Without StrictCostEnforcementForVAP: Expression does not exceed per call cost limit for extended library in variables",
      policy: () =>
        withVariables([{ name: "authzCheck", expression: threeChecks }], withValidations([{ expression: "variables.authzCheck" }], base())),
    },
    {
      name: "Without StrictCostEnforcementForVAP: Expression does not exceed per policy cost limit for extended library",
      policy: () => withValidations(generateValidationsWithAuthzCheck(29, authzCheck), base()),
    },
  ])("$name", async ({ policy, err, failureReason }) => {
    await h.createPolicy(withWaitReadyConstraintAndExpression(policy()));
    await h.createAndWaitReady(makeBinding("validate-namespace-suffix-binding", "validate-namespace-suffix", ""));

    const r = await h.createNamespace("test-k8s");
    if (err === undefined) {
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return;
    }
    expect(r.body.message).toContain(err);
    expect(r.body.reason).toBe(failureReason);
    expect(r.status).toBe(422);
  });
});
