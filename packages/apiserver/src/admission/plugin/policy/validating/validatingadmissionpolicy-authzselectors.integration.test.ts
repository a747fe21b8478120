/**
 * The AuthorizeWithSelectors feature gate over HTTP (environment/base.go adds library.AuthzSelectors
 * only with the gate on): a policy whose `authorizer` check narrows by field and label selector is
 * evaluated with the gate on (the 1.33 default) and, with `--feature-gates=AuthorizeWithSelectors=false`,
 * fails to compile and denies under failurePolicy Fail.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseFeatureGates } from "../../../../features/kube-features.ts";
import { startTestServer } from "../../../../server/testing.ts";
import {
  makeBinding,
  makePolicy,
  VapHarness,
  withFailurePolicy,
  withNamespaceMatch,
  withValidations,
  withWaitReadyConstraintAndExpression,
} from "./validatingadmissionpolicy-testing.ts";

const expression =
  "authorizer.group('').resource('services').fieldSelector('spec.type=NodePort').labelSelector('app=web').check('list').allowed()";
const policy = () =>
  withWaitReadyConstraintAndExpression(
    withValidations([{ expression }], withFailurePolicy("Fail", withNamespaceMatch(makePolicy("selectors")))),
  );

let on: VapHarness;
let off: VapHarness;
beforeAll(async () => {
  const [a, b] = await Promise.all([
    startTestServer(),
    startTestServer({ featureGates: parseFeatureGates("AuthorizeWithSelectors=false") }),
  ]);
  on = new VapHarness(a);
  off = new VapHarness(b);
});
afterEach(async () => Promise.all([on.cleanup(), off.cleanup()]));
afterAll(async () => Promise.all([on?.s.close(), off?.s.close()]));

async function judge(h: VapHarness) {
  await h.createPolicy(policy());
  await h.createAndWaitReady(makeBinding("selectors-binding", "selectors", ""));
  return h.createNamespace("test-selectors");
}

describe("AuthorizeWithSelectors", () => {
  it("on: the selectors go with the check and the authorizer allows the cluster admin", async () => {
    const r = await judge(on);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  });

  it("off: fieldSelector() does not compile and the policy denies", async () => {
    const r = await judge(off);
    expect(r.status).toBe(422);
    expect(r.body.reason).toBe("Invalid");
    expect(r.body.message).toMatch(
      /^namespaces "test-selectors" is forbidden: ValidatingAdmissionPolicy 'selectors' with binding 'selectors-binding' denied request: compilation error: compilation failed: ERROR: <input>:1:1: found no matching overload for 'fieldSelector' applied to 'kubernetes.authorization.ResourceCheck\(string\)'/,
    );
  });
});
