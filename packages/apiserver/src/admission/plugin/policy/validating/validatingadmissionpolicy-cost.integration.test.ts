/**
 * Upstream's Test_CostLimitForValidation (test/integration/apiserver/cel/
 * validatingadmissionpolicy_test.go) over HTTP: the per-call cost limit of one expression, native
 * or of the authorizer library, in validations, variables and matchConditions, and the per-policy
 * runtime budget. StrictCostEnforcementForVAP is locked on in Kubernetes 1.33, as here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";
import {
  arv1,
  call,
  cleanupPolicy,
  createAndWaitReady,
  makeBinding,
  makePolicy,
  mustCreate,
  withWaitReadyConstraintAndExpression,
  type PolicyOptions,
} from "./integration-testing.ts";

const list = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]";
const nativeExpensive = `${list}.all(x, ${list}.all(y, ${list}.all(z, ${list}.all(z2, ${list}.all(z3, ${list}.all(z4, ${list}.all(z5, int('1'.find('[0-9]*')) < 100)))))))`;
const authzCheck =
  "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').allowed()";
const threeChecks = `${authzCheck} && ${authzCheck} && ${authzCheck}`;

/** generateValidationsWithAuthzCheck: `num` validations of `exp`. */
function generateValidationsWithAuthzCheck(num: number, exp: string): PolicyOptions["validations"] {
  return Array.from({ length: num }, () => ({ expression: exp }));
}

describe("Test_CostLimitForValidation", () => {
  let s: TestServer;

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each<{ name: string; policy: PolicyOptions; err: string; failureReason: string }>([
    {
      name: "With StrictCostEnforcementForVAP: Single expression exceeds per call cost limit for native library",
      policy: { validations: [{ expression: nativeExpensive }] },
      err: "operation cancelled: actual cost limit exceeded",
      failureReason: "Invalid",
    },
    {
      name: "With StrictCostEnforcementForVAP: Expression exceeds per call cost limit for extended library",
      policy: { validations: [{ expression: threeChecks }] },
      err: "operation cancelled: actual cost limit exceeded",
      failureReason: "Invalid",
    },
    {
      name: "With StrictCostEnforcementForVAP: Expression exceeds per call cost limit for extended library in variables",
      policy: { variables: [{ name: "authzCheck", expression: threeChecks }], validations: [{ expression: "variables.authzCheck" }] },
      err: "operation cancelled: actual cost limit exceeded",
      failureReason: "Invalid",
    },
    {
      name: "With StrictCostEnforcementForVAP: Expression exceeds per call cost limit for extended library in matchConditions",
      policy: { matchConditions: [{ name: "test", expression: threeChecks }], validations: [{ expression: "true" }] },
      err: "operation cancelled: actual cost limit exceeded",
      failureReason: "Invalid",
    },
    {
      name: "With StrictCostEnforcementForVAP: Expression exceeds per policy cost limit for extended library",
      policy: { validations: generateValidationsWithAuthzCheck(29, authzCheck) },
      err: "validation failed due to running out of cost budget, no further validation rules will be run",
      failureReason: "Invalid",
    },
  ])("$name", async ({ policy: opts, err, failureReason }) => {
    const policy = withWaitReadyConstraintAndExpression(makePolicy("validate-namespace-suffix", opts));
    await mustCreate(s, `${arv1}/validatingadmissionpolicies`, policy);
    const binding = makeBinding("validate-namespace-suffix-binding", "validate-namespace-suffix");
    try {
      await createAndWaitReady(s, binding);
      const r = await call(s, "POST", "/api/v1/namespaces", { metadata: { name: "test-k8s" } });
      expect(r.body.message).toContain(err);
      expect(r.body.reason).toBe(failureReason);
      expect(r.status).toBe(422);
    } finally {
      await cleanupPolicy(s, policy, binding);
    }
  });
});
