/**
 * Upstream's Test_ValidateNamespace_NoParams and Test_ValidateNamespace_WithConfigMapParams
 * (test/integration/apiserver/cel/validatingadmissionpolicy_test.go), row for row: a policy on
 * Namespace creates, bound without params or with a ConfigMap param, and the error and reason
 * kube-apiserver answers.
 */
import { describe, expect, it } from "vitest";
import {
  configParamKind,
  makeBinding,
  makeConfigParams,
  makePolicy,
  useVapHarness,
  VapHarness,
  withFailurePolicy,
  withNamespaceMatch,
  withParams,
  withValidations,
  withWaitReadyConstraintAndExpression,
  type Answer,
  type Policy,
} from "./validatingadmissionpolicy-testing.ts";

let h: VapHarness;
useVapHarness((x) => (h = x));

/** checkExpectedError + checkFailureReason: the whole message, the reason and its code. */
function expectError(r: Answer, err: string, reason: string): void {
  if (err === "") {
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return;
  }
  expect(r.body.message).toBe(err);
  expect(r.body.reason).toBe(reason);
  expect(r.status).toBe(reason === "Forbidden" ? 403 : 422);
}

const suffixPolicy = (expression: string, o: { reason?: string; failurePolicy?: "Fail" | "Ignore"; params?: boolean } = {}): Policy => {
  const p = withFailurePolicy(o.failurePolicy ?? "Fail", withNamespaceMatch(makePolicy("validate-namespace-suffix")));
  if (o.params) withParams(configParamKind(), p);
  return withValidations([{ expression, ...(o.reason ? { reason: o.reason } : {}) }], p);
};
const denied = (ns: string, msg: string) =>
  `namespaces "${ns}" is forbidden: ValidatingAdmissionPolicy 'validate-namespace-suffix' with binding 'validate-namespace-suffix-binding' denied request: ${msg}`;

describe("Test_ValidateNamespace_NoParams", () => {
  const cases: { name: string; policy: Policy; namespace: string; err: string; failureReason?: string }[] = [
    {
      name: "namespace name contains suffix enforced by validating admission policy, using object metadata fields",
      policy: suffixPolicy("object.metadata.name.endsWith('k8s')"),
      namespace: "test-k8s",
      err: "",
    },
    {
      name: "namespace name does NOT contain suffix enforced by validating admission policyusing, object metadata fields",
      policy: suffixPolicy("object.metadata.name.endsWith('k8s')"),
      namespace: "test-foobar",
      err: denied("test-foobar", "failed expression: object.metadata.name.endsWith('k8s')"),
      failureReason: "Invalid",
    },
    {
      name: "namespace name does NOT contain suffix enforced by validating admission policy using object metadata fields, AND validating expression returns StatusReasonForbidden",
      policy: suffixPolicy("object.metadata.name.endsWith('k8s')", { reason: "Forbidden" }),
      namespace: "forbidden-test-foobar",
      err: denied("forbidden-test-foobar", "failed expression: object.metadata.name.endsWith('k8s')"),
      failureReason: "Forbidden",
    },
    {
      name: "namespace name contains suffix enforced by validating admission policy, using request field",
      policy: suffixPolicy("request.name.endsWith('k8s')"),
      namespace: "test-k8s",
      err: "",
    },
    {
      name: "namespace name does NOT contains suffix enforced by validating admission policy, using request field",
      policy: suffixPolicy("request.name.endsWith('k8s')"),
      namespace: "test-k8s",
      err: "",
    },
    {
      name: "runtime error when validating namespace, but failurePolicy=Ignore",
      policy: suffixPolicy("object.nonExistentProperty == 'someval'", { failurePolicy: "Ignore" }),
      namespace: "test-k8s",
      err: "",
    },
    {
      name: "runtime error when validating namespace, but failurePolicy=Fail",
      policy: suffixPolicy("object.nonExistentProperty == 'someval'"),
      namespace: "test-k8s",
      err: denied("test-k8s", "expression 'object.nonExistentProperty == 'someval'' resulted in error: no such key: nonExistentProperty"),
      failureReason: "Invalid",
    },
    {
      name: "runtime error due to unguarded params",
      policy: suffixPolicy("object.metadata.name.startsWith(params.metadata.name)", { params: true }),
      namespace: "test-k8s",
      err: denied(
        "test-k8s",
        "expression 'object.metadata.name.startsWith(params.metadata.name)' resulted in error: no such key: metadata",
      ),
      failureReason: "Invalid",
    },
    {
      name: "with check against unguarded params using has()",
      policy: suffixPolicy("has(params.metadata) && has(params.metadata.name) && object.metadata.name.endsWith(params.metadata.name)", {
        params: true,
      }),
      namespace: "test-k8s",
      err: denied(
        "test-k8s",
        "failed expression: has(params.metadata) && has(params.metadata.name) && object.metadata.name.endsWith(params.metadata.name)",
      ),
      failureReason: "Invalid",
    },
    {
      name: "with check against null params",
      policy: suffixPolicy("(params != null && object.metadata.name.endsWith(params.metadata.name))", { params: true }),
      namespace: "test-k8s",
      err: denied("test-k8s", "failed expression: (params != null && object.metadata.name.endsWith(params.metadata.name))"),
      failureReason: "Invalid",
    },
    {
      name: "with check against unguarded params using has() and default check",
      policy: suffixPolicy(
        "(has(params.metadata) && has(params.metadata.name) && object.metadata.name.startsWith(params.metadata.name)) || object.metadata.name.endsWith('k8s')",
        { params: true },
      ),
      namespace: "test-k8s",
      err: "",
    },
    {
      name: "with check against null params and default check",
      policy: suffixPolicy(
        "(params != null && object.metadata.name.startsWith(params.metadata.name)) || object.metadata.name.endsWith('k8s')",
        { params: true },
      ),
      namespace: "test-k8s",
      err: "",
    },
    {
      // A Namespace is cluster-scoped: it has no namespace object.
      name: "with check against namespaceObject",
      policy: suffixPolicy("namespaceObject == null", { params: true }),
      namespace: "test-k8s",
      err: "",
    },
  ];
  for (const { name, policy, namespace, err, failureReason } of cases)
    it(name, async () => {
      await h.createPolicy(withWaitReadyConstraintAndExpression(policy));
      await h.createAndWaitReady(makeBinding("validate-namespace-suffix-binding", "validate-namespace-suffix", ""));
      expectError(await h.createNamespace(namespace), err, failureReason ?? "");
    });
});

describe("Test_ValidateNamespace_WithConfigMapParams", () => {
  const policy = () =>
    withValidations(
      [{ expression: "object.metadata.name.endsWith(params.data.namespaceSuffix)" }],
      withFailurePolicy("Fail", withParams(configParamKind(), withNamespaceMatch(makePolicy("validate-namespace-suffix")))),
    );
  const cases = [
    { name: "namespace name contains suffix enforced by validating admission policy", namespace: "test-k8s", err: "" },
    {
      name: "namespace name does NOT contain suffix enforced by validating admission policy",
      namespace: "test-foo",
      err: denied("test-foo", "failed expression: object.metadata.name.endsWith(params.data.namespaceSuffix)"),
      failureReason: "Invalid",
    },
  ];
  for (const { name, namespace, err, failureReason } of cases)
    it(name, async () => {
      await h.createConfigMap(makeConfigParams("validate-namespace-suffix-param", { namespaceSuffix: "k8s" }));
      await h.createPolicy(withWaitReadyConstraintAndExpression(policy()));
      await h.createAndWaitReady(
        makeBinding("validate-namespace-suffix-binding", "validate-namespace-suffix", "validate-namespace-suffix-param"),
      );
      expectError(await h.createNamespace(namespace), err, failureReason ?? "");
    });
});
