/**
 * Upstream's tests of policies, bindings and params that change under a running server
 * (test/integration/apiserver/cel/validatingadmissionpolicy_test.go): Test_PolicyExemption,
 * Test_ValidatingAdmissionPolicy_UpdateParamRef, _UpdateParamResource, _PolicyDeletedThenRecreated,
 * _BindingDeletedThenRecreated and _ParamResourceDeletedThenRecreated. Namespaces are created with
 * generateName and polled until the change is in effect, as upstream's wait.PollImmediate loops.
 */
import { describe, expect, it } from "vitest";
import {
  arv1,
  configParamKind,
  makeBinding,
  makePolicy,
  markerMessage,
  useVapHarness,
  VapHarness,
  withFailurePolicy,
  withNamespaceMatch,
  withParams,
  withValidations,
  withWaitReadyConstraintAndExpression,
  type Answer,
} from "./validatingadmissionpolicy-testing.ts";

let h: VapHarness;
useVapHarness((x) => (h = x));

/** An allowed-prefixes policy: namespaces must pass `expression`, else `message`. */
const prefixPolicy = (expression: string, message: string) =>
  withWaitReadyConstraintAndExpression(
    withValidations(
      [{ expression, message }],
      withParams(configParamKind(), withNamespaceMatch(withFailurePolicy("Fail", makePolicy("allowed-prefixes")))),
    ),
  );

/** Polls until a namespace named `prefix`... is refused with `message` (the new state is in effect). */
const untilDenied = (prefix: string, message: string) =>
  h.until(async () => ((await h.createNamespace(prefix)).body.message ?? "").includes(message), `${prefix}* to be refused: ${message}`);
/** Polls until a namespace named `prefix`... is admitted. */
const untilAllowed = (prefix: string) => h.until(async () => (await h.createNamespace(prefix)).status === 201, `${prefix}* to be admitted`);
const expectAllowed = async (prefix: string) => {
  const r: Answer = await h.createNamespace(prefix);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
};

describe("Test_PolicyExemption", () => {
  it("operations on policies and bindings are exempt from a policy that catches all resources", async () => {
    const policy = makePolicy("test-policy");
    policy.spec.matchConstraints = { resourceRules: [{ operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"] }] };
    policy.spec.validations = [{ expression: "false", message: markerMessage }];
    await h.createPolicy(policy);
    await h.createAndWaitReady(makeBinding("test-policy-binding", "test-policy", ""));

    const p = await h.send(
      "PATCH",
      `${arv1}/validatingadmissionpolicies/test-policy`,
      { spec: { failurePolicy: "Ignore" } },
      "application/merge-patch+json",
    );
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const b = await h.send(
      "PATCH",
      `${arv1}/validatingadmissionpolicybindings/test-policy-binding`,
      { spec: { policyName: "different-binding" } },
      "application/merge-patch+json",
    );
    expect(b.status, JSON.stringify(b.body)).toBe(200);
  });
});

describe("Test_ValidatingAdmissionPolicy_UpdateParamRef", () => {
  it("judges with the param the binding's paramRef names now", async () => {
    await h.createConfigMap({ metadata: { name: "test-1" } });
    await h.createConfigMap({ metadata: { name: "test-2" } });
    await h.createPolicy(prefixPolicy("object.metadata.name.startsWith(params.metadata.name)", "wrong paramRef"));
    await h.createAndWaitReady(makeBinding("allowed-prefixes-binding", "allowed-prefixes", "test-1"));
    await untilDenied("test-2-", "wrong paramRef");
    await expectAllowed("test-1-");

    const binding = makeBinding("allowed-prefixes-binding", "allowed-prefixes", "test-2");
    const r = await h.send(
      "PATCH",
      `${arv1}/validatingadmissionpolicybindings/allowed-prefixes-binding`,
      binding,
      "application/merge-patch+json",
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await untilDenied("test-1-", "wrong paramRef");
    await expectAllowed("test-2-");
  });
});

describe("Test_ValidatingAdmissionPolicy_UpdateParamResource", () => {
  it("judges with the param's data as it is now", async () => {
    await h.createConfigMap({ metadata: { name: "allowed-prefix" }, data: { prefix: "test-1" } } as { metadata: { name: string } });
    await h.createPolicy(prefixPolicy("object.metadata.name.startsWith(params.data['prefix'])", "wrong prefix"));
    await h.createAndWaitReady(makeBinding("allowed-prefixes-binding", "allowed-prefixes", "allowed-prefix"));
    await untilDenied("test-2-", "wrong prefix");
    await expectAllowed("test-1-");

    const r = await h.send(
      "PATCH",
      "/api/v1/namespaces/default/configmaps/allowed-prefix",
      { data: { prefix: "test-2" } },
      "application/merge-patch+json",
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await untilDenied("test-1-", "wrong prefix");
    await expectAllowed("test-2-");
  });
});

describe("Test_ValidatingAdmissionPolicy_PolicyDeletedThenRecreated", () => {
  it("deleting the policy takes it out of admission and recreating it puts it back", async () => {
    const policy = prefixPolicy("object.metadata.name.startsWith('test')", "wrong prefix");
    await h.createPolicy(policy);
    await h.createAndWaitReady(makeBinding("allowed-prefixes-binding", "allowed-prefixes", ""));
    await untilDenied("not-test-", "wrong prefix");

    expect((await h.s.request(`${arv1}/validatingadmissionpolicies/allowed-prefixes`, { method: "DELETE" })).status).toBe(200);
    await untilAllowed("not-test-");

    await h.createPolicy(policy);
    await untilDenied("not-test-", "wrong prefix");
  });
});

describe("Test_ValidatingAdmissionPolicy_BindingDeletedThenRecreated", () => {
  it("deleting the binding takes the policy out of admission and recreating it puts it back", async () => {
    await h.createPolicy(prefixPolicy("object.metadata.name.startsWith('test')", "wrong prefix"));
    const binding = makeBinding("allowed-prefixes-binding", "allowed-prefixes", "");
    await h.createAndWaitReady(binding);
    await untilDenied("not-test-", "wrong prefix");

    expect((await h.s.request(`${arv1}/validatingadmissionpolicybindings/allowed-prefixes-binding`, { method: "DELETE" })).status).toBe(
      200,
    );
    await untilAllowed("not-test-");

    await h.mustCreate(`${arv1}/validatingadmissionpolicybindings`, binding);
    await untilDenied("not-test-", "wrong prefix");
  });
});

describe("Test_ValidatingAdmissionPolicy_ParamResourceDeletedThenRecreated", () => {
  it("a deleted param fails the binding's configuration until it is recreated", async () => {
    const notFound = "failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction";
    await h.createConfigMap({ metadata: { name: "test" } });
    await h.createPolicy(prefixPolicy("object.metadata.name.startsWith(params.metadata.name)", "wrong prefix"));
    await h.createAndWaitReady(makeBinding("allowed-prefixes-binding", "allowed-prefixes", "test"));
    await untilDenied("not-test-", "wrong prefix");

    expect((await h.s.request("/api/v1/namespaces/default/configmaps/test", { method: "DELETE" })).status).toBe(200);
    await untilDenied("not-test-", notFound);
    const r = await h.createNamespace("not-test-");
    expect(r.body.message).toBe(`policy 'allowed-prefixes' with binding 'allowed-prefixes-binding' denied request: ${notFound}`);
    expect(r.body.reason).toBe("Forbidden");
    expect(r.status).toBe(403);

    await h.createConfigMap({ metadata: { name: "test" } });
    await untilDenied("not-test-", "wrong prefix");
  });
});
