/**
 * The AuthorizeWithSelectors feature gate over HTTP (environment/base.go adds library.AuthzSelectors
 * only with the gate on): a policy whose `authorizer` check narrows by field and label selector is
 * evaluated with the gate on (the 1.33 default). With `--feature-gates=AuthorizeWithSelectors=false`
 * such a policy is refused when written, and one stored while the gate was on fails to compile and
 * denies under failurePolicy Fail.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseFeatureGates } from "../../../../features/kube-features.ts";
import type { KubeObject } from "../../../../storage/index.ts";
import { objectKey } from "../../../../storage/keys.ts";
import { startTestServer } from "../../../../server/testing.ts";
import { validatingAdmissionPolicyStoragePath } from "../../../../registry/admissionregistration/rest/storage-admissionregistration.ts";
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

  it("off: a policy calling fieldSelector() is refused when written", async () => {
    const r = await off.post("/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", policy());
    expect(r.status).toBe(422);
    expect(r.body.message).toContain("compilation failed: ERROR: <input>:1:56: undeclared reference to 'fieldSelector' (in container '')");
  });

  it("off: a policy stored while the gate was on does not compile and denies", async () => {
    // Written by the server with the gate on (so defaulted and validated there), then stored as is.
    await on.createPolicy(policy());
    const read = await on.s.request("/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/selectors");
    const stored = read.json() as KubeObject;
    delete stored.metadata.resourceVersion;
    await off.s.api.store.create(objectKey(validatingAdmissionPolicyStoragePath, undefined, "selectors"), stored);
    try {
      await off.createAndWaitReady(makeBinding("selectors-binding", "selectors", ""));
      const r = await off.createNamespace("test-selectors");
      expect(r.status).toBe(422);
      expect(r.body.reason).toBe("Invalid");
      expect(r.body.message).toMatch(
        /^namespaces "test-selectors" is forbidden: ValidatingAdmissionPolicy 'selectors' with binding 'selectors-binding' denied request: compilation error: compilation failed: ERROR: <input>:1:56: undeclared reference to 'fieldSelector' \(in container ''\)/,
      );
    } finally {
      await off.send("DELETE", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/selectors");
    }
  });
});
