/**
 * Upstream's TestCRDParams and TestBindingRemoval
 * (test/integration/apiserver/cel/validatingadmissionpolicy_test.go) over HTTP: a custom resource
 * as a policy's params, and a deleted binding that stops judging.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createCRD } from "../../../../apiextensions/test/integration/fixtures-testing.ts";
import {
  arv1,
  makeBinding,
  makePolicy,
  useVapHarness,
  VapHarness,
  withFailurePolicy,
  withNamespaceMatch,
  withParams,
  withValidations,
  withWaitReadyConstraintAndExpression,
} from "./validatingadmissionpolicy-testing.ts";

/** versionedCustomResourceDefinition (etcd.GetCustomResourceDefinitionData): cluster-scoped pandas, v1 and v2. */
function versionedCustomResourceDefinition(): Record<string, unknown> {
  const version = (name: string, storage: boolean) => ({
    name,
    served: true,
    storage,
    schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
    subresources: {
      status: {},
      scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" },
    },
  });
  return {
    metadata: { name: "pandas.awesome.bears.com" },
    spec: {
      group: "awesome.bears.com",
      versions: [version("v1", true), version("v2", false)],
      scope: "Cluster",
      names: { plural: "pandas", kind: "Panda" },
    },
  };
}

describe("ValidatingAdmissionPolicy integration: CRD params and binding removal", () => {
  let h: VapHarness;
  useVapHarness((x) => (h = x));

  describe("TestCRDParams", () => {
    beforeAll(async () => {
      await createCRD(h.s, versionedCustomResourceDefinition());
      const panda = {
        apiVersion: "awesome.bears.com/v1",
        kind: "Panda",
        metadata: { name: "config-obj" },
        spec: { nameCheck: "crd-test-k8s" },
      };
      expect((await h.post("/apis/awesome.bears.com/v1/pandas", panda)).status).toBe(201);
    });

    it.each([
      {
        name: "a rule that uses data from a CRD param resource does NOT pass",
        namespace: "incorrect-name",
        err: `namespaces "incorrect-name" is forbidden: ValidatingAdmissionPolicy 'test-policy' with binding 'crd-policy-binding' denied request: failed expression: params.spec.nameCheck == object.metadata.name`,
        failureReason: "Invalid",
      },
      { name: "a rule that uses data from a CRD param resource that does pass", namespace: "crd-test-k8s", err: "", failureReason: "" },
    ])("$name", async ({ namespace, err, failureReason }) => {
      const policy = withValidations(
        [{ expression: "params.spec.nameCheck == object.metadata.name" }],
        withNamespaceMatch(
          withParams({ apiVersion: "awesome.bears.com/v1", kind: "Panda" }, withFailurePolicy("Fail", makePolicy("test-policy"))),
        ),
      );
      await h.createPolicy(withWaitReadyConstraintAndExpression(policy));
      // The CRD is cluster-scoped: the paramRef names no namespace.
      const binding = makeBinding("crd-policy-binding", "test-policy", "config-obj");
      delete binding.spec.paramRef?.["namespace"];
      await h.createAndWaitReady(binding);

      const r = await h.createNamespace(namespace);
      if (err === "") expect(r.status, JSON.stringify(r.body)).toBe(201);
      else {
        expect(r.body.message).toBe(err);
        expect(r.body.reason).toBe(failureReason);
        expect(r.status).toBe(422);
      }
    });
  });

  it("TestBindingRemoval", async () => {
    const policy = withValidations(
      [{ expression: "false", message: "policy still in effect" }],
      withNamespaceMatch(withFailurePolicy("Fail", makePolicy("test-policy"))),
    );
    await h.createPolicy(withWaitReadyConstraintAndExpression(policy));
    // The paramRef of a policy without paramKind is ignored (CollectParams).
    await h.createAndWaitReady(makeBinding("test-binding", "test-policy", "test-params"));

    const denied = await h.createNamespace("check-namespace");
    expect(denied.status).toBe(422);
    expect(denied.body.message).toContain("policy still in effect");

    expect((await h.send("DELETE", `${arv1}/validatingadmissionpolicybindings/test-binding`)).status).toBe(200);
    await h.until(
      async () => (await h.send("GET", `${arv1}/validatingadmissionpolicybindings/test-binding`)).status === 404,
      "the binding to be deleted",
    );
    // Without a binding the policy judges nothing: namespace creation is allowed again.
    await h.until(async () => (await h.createNamespace("test-namespace")).status === 201, "namespace creation to be allowed");
  });
});
