/**
 * Upstream's TestCRDsOnStartup (test/integration/apiserver/cel/validatingadmissionpolicy_test.go)
 * over HTTP: a policy whose paramKind is a custom resource keeps judging after the apiserver
 * restarts on the same storage, while a hundred other CRDs make the start-up sync long.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../../../storage/index.ts";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";
import { createCRD } from "../../../../apiextensions/test/integration/fixtures-testing.ts";
import {
  makeBinding,
  makePolicy,
  VapHarness,
  withFailurePolicy,
  withNamespaceMatch,
  withParams,
  withValidations,
  withWaitReadyConstraintAndExpression,
} from "./validatingadmissionpolicy-testing.ts";

/** The namespaced `foos.cr.bar.com` of upstream's test, or its `foos<i>` copies. */
function fooCRD(suffix = ""): Record<string, unknown> {
  return {
    metadata: { name: `foos${suffix}.cr.bar.com` },
    spec: {
      group: "cr.bar.com",
      scope: "Namespaced",
      names: { plural: `foos${suffix}`, kind: `Foo${suffix}` },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
        },
      ],
    },
  };
}

describe("TestCRDsOnStartup", () => {
  let store: Store | undefined;
  let s: TestServer | undefined;
  afterAll(async () => {
    await s?.close();
    await store?.close();
  });

  /** doCheck: a namespace without the param's name as prefix is denied with "wrong prefix". */
  const doCheck = (h: VapHarness) =>
    h.until(async () => {
      const r = await h.createNamespace("not-test-");
      // Before the param informer has synced the request is admitted or denied for another reason.
      return r.status === 422 && (r.body.message ?? "").includes("wrong prefix");
    }, "the policy to deny with its params");

  it("keeps judging with a custom resource param after a restart", async () => {
    store = await createStore({ backend: "memory" });
    s = await startTestServer({ storage: store });
    const h = new VapHarness(s);
    // A bunch of CRDs to make the initial start-up sync take a long time.
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => h.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", fooCRD(String(i)))),
    );
    await createCRD(s, fooCRD());
    const param = { apiVersion: "cr.bar.com/v1", kind: "Foo", metadata: { name: "test", namespace: "default" }, foo: "bar" };
    expect((await h.post("/apis/cr.bar.com/v1/namespaces/default/foos", param)).status).toBe(201);
    const policy = withValidations(
      [{ expression: "object.metadata.name.startsWith(params.metadata.name)", message: "wrong prefix" }],
      withParams(
        { apiVersion: "cr.bar.com/v1", kind: "Foo" },
        withNamespaceMatch(withFailurePolicy("Fail", makePolicy("allowed-prefixes"))),
      ),
    );
    await h.createPolicy(withWaitReadyConstraintAndExpression(policy));
    await h.createAndWaitReady(makeBinding("allowed-prefixes-binding", "allowed-prefixes", "test"));
    // The policy and binding work before the restart.
    await doCheck(h);

    await s.close();
    s = await startTestServer({ storage: store });
    // And again once the restarted server has found the CRD of the paramKind.
    await doCheck(new VapHarness(s));
  });
});
