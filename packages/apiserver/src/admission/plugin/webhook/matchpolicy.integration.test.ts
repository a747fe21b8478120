/**
 * matchPolicy Equivalent over HTTP, after upstream's test/integration/apiserver/admissionwebhook
 * match_conditions_test.go Test_MutatingWebhookConvertsGVKWithMatchPolicyEquivalent (a CRD served
 * in v1 and v2, a webhook for each version with a matchCondition on the apiVersion it expects)
 * and the converted webhooks of admission_test.go testWebhookAdmission (kind and resource the
 * webhook's, requestKind and requestResource the request's); and a ValidatingAdmissionPolicy
 * matching through an equivalent version (test/integration/apiserver/cel/validatingadmissionpolicy_test.go).
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCRD } from "../../../apiextensions/test/integration/fixtures-testing.ts";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { startWebhookServer, type RecordedReview, type WebhookServer } from "./testing.ts";

const json = { "Content-Type": "application/json" };
const arv1 = "/apis/admissionregistration.k8s.io/v1";
const group = "awesome.example.com";
const allowAll = { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } };

/** versionedCustomResourceDefinition: pandas, cluster-scoped, v1 (storage) and v2. */
const pandas = {
  metadata: { name: `pandas.${group}` },
  spec: {
    group,
    scope: "Cluster",
    names: { plural: "pandas", kind: "Panda" },
    versions: [
      { name: "v1", served: true, storage: true, schema: allowAll },
      { name: "v2", served: true, storage: false, schema: allowAll },
    ],
  },
};

const rule = (version: string, operations = ["CREATE"]) => ({ operations, apiGroups: [group], apiVersions: [version], resources: ["*/*"] });

describe("matchPolicy Equivalent", () => {
  let s: TestServer;
  let hook: WebhookServer;
  beforeAll(async () => {
    [s, hook] = await Promise.all([startTestServer(), startWebhookServer()]);
    await createCRD(s, pandas);
  });
  afterAll(async () => {
    await Promise.all([s?.close(), hook?.close()]);
  });

  const createPanda = (version: string, name: string, labels: Record<string, string> = {}, query = "") =>
    s.request(`/apis/${group}/${version}/pandas${query}`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ apiVersion: `${group}/${version}`, kind: "Panda", metadata: { name, labels } }),
    });

  const reviewsOf = (name: string): RecordedReview[] => hook.reviews.filter((r) => r.request.name === name);

  it("Test_MutatingWebhookConvertsGVKWithMatchPolicyEquivalent: each webhook gets the object in its own version; Exact is not converted", async () => {
    const hooks = [
      { name: "admission.integration.test.v2", path: "/add-label", version: "v2", failurePolicy: "Ignore", matchPolicy: "Equivalent" },
      { name: "admission.integration.test", path: "/allow", version: "v1", matchPolicy: "Equivalent" },
      { name: "exact.integration.test", path: "/warn", version: "v1", matchPolicy: "Exact" },
    ];
    const r = await s.request(`${arv1}/mutatingwebhookconfigurations`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        metadata: { name: "admission.integration.test" },
        webhooks: hooks.map((h) => ({
          name: h.name,
          rules: [rule(h.version)],
          matchPolicy: h.matchPolicy,
          clientConfig: { url: `${hook.url}${h.path}`, caBundle: hook.caBundle },
          ...(h.failurePolicy ? { failurePolicy: h.failurePolicy } : {}),
          sideEffects: "None",
          admissionReviewVersions: ["v1"],
          matchConditions: [{ name: `test-${h.version}`, expression: `object.apiVersion == '${group}/${h.version}'` }],
        })),
      }),
    });
    expect(r.status, r.text).toBe(201);
    let markers = 0;
    await eventually(
      async () => {
        const name = `marker-${++markers}`;
        await createPanda("v2", name, {}, "?dryRun=All");
        return reviewsOf(name).length > 0;
      },
      { what: "the webhook configuration in effect" },
    );
    hook.reviews.length = 0;

    expect((await createPanda("v1", "v1-bears")).status).toBe(201);
    const v2 = await createPanda("v2", "v2-bears");
    expect(v2.status, v2.text).toBe(201);
    // upstream: "expected 4 request"; here also the Exact webhook's one, for the v1 object only.
    expect(hook.reviews.map((v) => `${v.path} ${v.request.name}`).sort()).toEqual([
      "/add-label v1-bears",
      "/add-label v2-bears",
      "/allow v1-bears",
      "/allow v2-bears",
      "/warn v1-bears",
    ]);

    const panda = (version: string, resource = "pandas") => ({ group, version, resource });
    const kind = (version: string) => ({ group, version, kind: "Panda" });
    const converted = reviewsOf("v1-bears").find((v) => v.path === "/add-label")!.request;
    expect(converted).toMatchObject({ kind: kind("v2"), resource: panda("v2"), requestKind: kind("v1"), requestResource: panda("v1") });
    expect((converted.object as { apiVersion: string }).apiVersion).toBe(`${group}/v2`);
    const back = reviewsOf("v2-bears").find((v) => v.path === "/allow")!.request;
    expect(back).toMatchObject({ kind: kind("v1"), resource: panda("v1"), requestKind: kind("v2"), requestResource: panda("v2") });
    expect((back.object as { apiVersion: string }).apiVersion).toBe(`${group}/v1`);
    const exact = reviewsOf("v1-bears").find((v) => v.path === "/warn")!.request;
    expect(exact).toMatchObject({ kind: kind("v1"), requestKind: kind("v1") });

    // The v2 webhook's patch of the converted object is converted back and stored.
    const stored = (await s.request(`/apis/${group}/v1/pandas/v1-bears`)).json() as {
      apiVersion: string;
      metadata: { labels?: Record<string, string> };
    };
    expect(stored.apiVersion).toBe(`${group}/v1`);
    expect(stored.metadata.labels).toEqual({ "webhook-added": "yes" });
  });

  it("ValidatingAdmissionPolicy matchConstraints: Equivalent sees a v2 request as v1, Exact does not match it", async () => {
    const policy = (name: string, matchPolicy: string, message: string) => ({
      metadata: { name },
      spec: {
        matchConstraints: { resourceRules: [rule("v1")], matchPolicy, objectSelector: { matchLabels: { policy: name } } },
        validations: [{ expression: "false", messageExpression: message }],
      },
    });
    const binding = (name: string) => ({ metadata: { name: `${name}-binding` }, spec: { policyName: name, validationActions: ["Deny"] } });
    const create = async (path: string, body: unknown) => {
      const r = await s.request(`${arv1}/${path}`, { method: "POST", headers: json, body: JSON.stringify(body) });
      expect(r.status, r.text).toBe(201);
    };
    const seenAs = "'seen as ' + request.kind.version + ' (' + object.apiVersion + ') from ' + request.requestKind.version";
    for (const [name, matchPolicy] of [
      ["panda-exact", "Exact"],
      ["panda-equivalent", "Equivalent"],
    ] as const) {
      await create("validatingadmissionpolicies", policy(name, matchPolicy, seenAs));
      await create("validatingadmissionpolicybindings", binding(name));
      let n = 0;
      await eventually(async () => (await createPanda("v1", `${name}-marker-${++n}`, { policy: name }, "?dryRun=All")).status === 422, {
        what: `policy ${name} in effect`,
      });
    }

    const exact = await createPanda("v2", "exact-v2", { policy: "panda-exact" });
    expect(exact.status, exact.text).toBe(201);
    const equivalent = await createPanda("v2", "equivalent-v2", { policy: "panda-equivalent" });
    expect(equivalent.status).toBe(422);
    expect((equivalent.json() as { message: string }).message).toBe(
      `pandas.${group} "equivalent-v2" is forbidden: ValidatingAdmissionPolicy 'panda-equivalent' with binding 'panda-equivalent-binding' denied request: seen as v1 (${group}/v1) from v2`,
    );
  });
});
