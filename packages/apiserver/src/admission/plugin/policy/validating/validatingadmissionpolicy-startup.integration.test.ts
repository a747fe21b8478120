/**
 * Upstream's TestCRDsOnStartup (test/integration/apiserver/cel/validatingadmissionpolicy_test.go)
 * over HTTP: a policy whose paramKind is a custom resource keeps judging after the apiserver
 * restarts on the same storage, while a hundred other CRDs make the start-up sync long.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../../../storage/index.ts";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";
import { createCRD } from "../../../../apiextensions/test/integration/fixtures-testing.ts";
import {
  arv1,
  call,
  createAndWaitReady,
  makeBinding,
  makePolicy,
  mustCreate,
  withWaitReadyConstraintAndExpression,
} from "./integration-testing.ts";

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
  const doCheck = (server: TestServer) =>
    eventually(
      async () => {
        const r = await call(server, "POST", "/api/v1/namespaces", { metadata: { generateName: "not-test-" } });
        // Before the param informer has synced the request is admitted or denied for another reason.
        return r.status === 422 && (r.body.message ?? "").includes("wrong prefix");
      },
      { what: "the policy to deny with its params", timeoutMs: 180_000 },
    );

  it("keeps judging with a custom resource param after a restart", async () => {
    store = await createStore({ backend: "memory" });
    s = await startTestServer({ storage: store });
    // A bunch of CRDs to make the initial start-up sync take a long time.
    const server = s;
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        mustCreate(server, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", fooCRD(String(i))),
      ),
    );
    await createCRD(s, fooCRD());
    await mustCreate(s, "/apis/cr.bar.com/v1/namespaces/default/foos", {
      apiVersion: "cr.bar.com/v1",
      kind: "Foo",
      metadata: { name: "test", namespace: "default" },
      foo: "bar",
    });
    const policy = withWaitReadyConstraintAndExpression(
      makePolicy("allowed-prefixes", {
        paramKind: { apiVersion: "cr.bar.com/v1", kind: "Foo" },
        validations: [{ expression: "object.metadata.name.startsWith(params.metadata.name)", message: "wrong prefix" }],
      }),
    );
    await mustCreate(s, `${arv1}/validatingadmissionpolicies`, policy);
    await createAndWaitReady(s, makeBinding("allowed-prefixes-binding", "allowed-prefixes", "test"));
    // The policy and binding work before the restart.
    expect(await doCheck(s)).toBe(true);

    await s.close();
    s = await startTestServer({ storage: store });
    // And again once the restarted server has found the CRD of the paramKind.
    expect(await doCheck(s)).toBe(true);
  });
});
