/**
 * Upstream's matching tests (test/integration/apiserver/cel/validatingadmissionpolicy_test.go):
 * Test_ValidatingAdmissionPolicy_MatchByObjectSelector, _MatchByNamespaceSelector,
 * _MatchByResourceNames, _MatchWithMatchPolicyEquivalent, _MatchWithMatchPolicyExact and
 * _MatchExcludedResource (a SelfSubjectReview), over
 * ConfigMaps and the versioned `pandas` custom resource.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createCRD } from "../../../../apiextensions/test/integration/fixtures-testing.ts";
import {
  arv1,
  makeBinding,
  makePolicy,
  useVapHarness,
  VapHarness,
  withConfigMapMatch,
  withFailurePolicy,
  withValidations,
  withWaitReadyConstraintAndExpression,
  type Answer,
  type Policy,
} from "./validatingadmissionpolicy-testing.ts";

let h: VapHarness;
useVapHarness((x) => (h = x));

const denyAll = (name: string, message: string, p: Policy = withConfigMapMatch(makePolicy(name))) =>
  withValidations([{ expression: "false", message }], withFailurePolicy("Fail", p));
const createConfigMap = (ns: string, metadata: Record<string, unknown>) => h.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata });
const expectCreated = (r: Answer) => expect(r.status, JSON.stringify(r.body)).toBe(201);

describe("Test_ValidatingAdmissionPolicy_MatchByObjectSelector", () => {
  it("judges only the objects whose labels the policy's objectSelector selects", async () => {
    const policy = denyAll("match-by-object-selector", "matched by object selector!");
    policy.spec.matchConstraints!.objectSelector = { matchLabels: { foo: "bar" } };
    await h.createPolicy(withWaitReadyConstraintAndExpression(policy));
    await h.createAndWaitReady(makeBinding("match-by-object-selector-binding", "match-by-object-selector", ""), { foo: "bar" });

    const denied = await createConfigMap("default", { name: "denied", labels: { foo: "bar" } });
    expect(denied.body.message).toContain("matched by object selector!");
    expectCreated(await createConfigMap("default", { name: "allowed" }));
    await h.s.request("/api/v1/namespaces/default/configmaps/allowed", { method: "DELETE" });
  });
});

describe("Test_ValidatingAdmissionPolicy_MatchByNamespaceSelector", () => {
  it("judges only requests in the namespaces the policy's namespaceSelector selects", async () => {
    // Only ConfigMaps in default are allowed.
    const policy = denyAll("match-by-namespace-selector", "matched by namespace selector!");
    policy.spec.matchConstraints!.namespaceSelector = {
      matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "NotIn", values: ["default"] }],
    };
    await h.createPolicy(withWaitReadyConstraintAndExpression(policy));
    // Upstream creates this binding without waiting for the marker: the ConfigMap loop below waits.
    await h.mustCreate(
      `${arv1}/validatingadmissionpolicybindings`,
      makeBinding("match-by-namespace-selector-binding", "match-by-namespace-selector", ""),
    );
    expectCreated(await h.post("/api/v1/namespaces", { metadata: { name: "not-default" } }));

    await h.until(
      async () =>
        ((await createConfigMap("not-default", { generateName: "denied-" })).body.message ?? "").includes("matched by namespace selector!"),
      "ConfigMaps in not-default to be refused",
    );
    expectCreated(await createConfigMap("default", { name: "allowed" }));
    await h.s.request("/api/v1/namespaces/default/configmaps/allowed", { method: "DELETE" });
  });
});

describe("Test_ValidatingAdmissionPolicy_MatchByResourceNames", () => {
  it("judges only the objects the rule's resourceNames name", async () => {
    const policy = denyAll("match-by-resource-names", "matched by resource names!");
    policy.spec.matchConstraints!.resourceRules![0]!.resourceNames = ["matched-by-resource-name"];
    await h.createPolicy(withWaitReadyConstraintAndExpression(policy));
    await h.createAndWaitReady(makeBinding("match-by-resource-names-binding", "match-by-resource-names", ""));

    const denied = await createConfigMap("default", { name: "matched-by-resource-name" });
    expect(denied.body.message).toContain("matched by resource names!");
    expectCreated(await createConfigMap("default", { name: "not-matched-by-resource-name" }));
    await h.s.request("/api/v1/namespaces/default/configmaps/not-matched-by-resource-name", { method: "DELETE" });
  });
});

describe("matchPolicy over the versioned pandas", () => {
  const group = "awesome.bears.com";
  const allowAll = { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } };
  const subresources = {
    status: {},
    scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" },
  };
  beforeAll(async () => {
    // versionedCustomResourceDefinition
    await createCRD(h.s, {
      metadata: { name: `pandas.${group}` },
      spec: {
        group,
        scope: "Cluster",
        names: { plural: "pandas", kind: "Panda" },
        versions: [
          { name: "v1", served: true, storage: true, schema: allowAll, subresources },
          { name: "v2", served: true, storage: false, schema: allowAll, subresources },
        ],
      },
    });
  });
  const pandaPolicy = (name: string, message: string, matchPolicy?: "Exact") => {
    const p = denyAll(name, message, makePolicy(name));
    p.spec.matchConstraints = {
      ...(matchPolicy ? { matchPolicy } : {}),
      resourceRules: [{ operations: ["*"], apiGroups: [group], apiVersions: ["v1"], resources: ["pandas"] }],
    };
    return withWaitReadyConstraintAndExpression(p);
  };
  const createPanda = (version: string) =>
    h.post(`/apis/${group}/${version}/pandas`, {
      apiVersion: `${group}/${version}`,
      kind: "Panda",
      metadata: { name: `${version}-bears` },
    });

  describe("Test_ValidatingAdmissionPolicy_MatchWithMatchPolicyEquivalent", () => {
    it("a policy on v1 pandas judges v2 pandas too", async () => {
      await h.createPolicy(pandaPolicy("match-by-match-policy-equivalent", "matched by equivalent match policy!"));
      await h.createAndWaitReady(makeBinding("match-by-match-policy-equivalent-binding", "match-by-match-policy-equivalent", ""));
      expect((await createPanda("v1")).body.message).toContain("matched by equivalent match policy!");
      expect((await createPanda("v2")).body.message).toContain("matched by equivalent match policy!");
    });
  });

  describe("Test_ValidatingAdmissionPolicy_MatchWithMatchPolicyExact", () => {
    it("a policy on v1 pandas with matchPolicy Exact lets v2 pandas through", async () => {
      await h.createPolicy(pandaPolicy("match-by-match-policy-exact", "matched by exact match policy!", "Exact"));
      await h.createAndWaitReady(makeBinding("match-by-match-policy-exact-binding", "match-by-match-policy-exact", ""));
      expect((await createPanda("v1")).body.message).toContain("matched by exact match policy!");
      // v2 pandas are allowed: the policy matches only v1, exactly.
      expectCreated(await createPanda("v2"));
      await h.s.request(`/apis/${group}/v2/pandas/v2-bears`, { method: "DELETE" });
    });
  });
});

describe("a policy on deployments/scale", () => {
  it("judges the autoscaling/v1 Scale of a scale update (ScaleREST.Update's toScaleUpdateValidation)", async () => {
    const policy = withFailurePolicy(
      "Fail",
      withValidations(
        [{ expression: "object.kind == 'Scale' && object.spec.replicas <= 5", message: "too many replicas" }],
        makePolicy("scale"),
      ),
    );
    policy.spec.matchConstraints = {
      resourceRules: [{ operations: ["UPDATE"], apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments/scale"] }],
    };
    await h.createPolicy(withWaitReadyConstraintAndExpression(policy));
    await h.createAndWaitReady(makeBinding("scale-binding", "scale", ""));
    const labels = { app: "web" };
    await h.mustCreate("/apis/apps/v1/namespaces/default/deployments", {
      metadata: { name: "web" },
      spec: {
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: "c", image: "nginx" }] } },
      },
    });
    const scale = (replicas: number) =>
      h.send("PATCH", "/apis/apps/v1/namespaces/default/deployments/web/scale", { spec: { replicas } }, "application/merge-patch+json");
    const denied = await scale(10);
    expect(denied.status).toBe(422);
    expect(denied.body.message).toContain("too many replicas");
    expect((await scale(3)).status).toBe(200);
  });
});

describe("Test_ValidatingAdmissionPolicy_MatchExcludedResource", () => {
  it("never judges a SelfSubjectReview, though the policy's rules name selfsubjectreviews (exclusion.Excluded)", async () => {
    const policy = denyAll("match-excluded-resources", "try to deny SelfSubjectReview", makePolicy("match-excluded-resources"));
    policy.spec.matchConstraints = {
      matchPolicy: "Exact",
      resourceRules: [{ operations: ["*"], apiGroups: ["authentication.k8s.io"], apiVersions: ["v1"], resources: ["selfsubjectreviews"] }],
    };
    await h.createPolicy(withWaitReadyConstraintAndExpression(policy));
    await h.createAndWaitReady(makeBinding("match-by-match-policy-exact-binding", "match-excluded-resources", ""));
    const r = await h.post("/apis/authentication.k8s.io/v1/selfsubjectreviews", {
      apiVersion: "authentication.k8s.io/v1",
      kind: "SelfSubjectReview",
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    // Upstream's confidence check of the returned user info.
    expect((r.body as { status?: { userInfo?: { uid?: string } } }).status?.userInfo?.uid ?? "").not.toBe("");
  });
});
