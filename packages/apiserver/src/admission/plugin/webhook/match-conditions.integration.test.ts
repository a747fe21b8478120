/**
 * Upstream's test/integration/apiserver/admissionwebhook/match_conditions_test.go over HTTP:
 * TestMatchConditions (which dry-run Pod creates reach a validating, then a mutating, webhook
 * under its matchConditions and failurePolicy), TestMatchConditionsWithStrictCostEnforcement (the
 * per-call and the overall cost limits, with authorizer checks at their fixed cost) and
 * TestMatchConditions_validation (which configurations are refused as Invalid). As upstream, a second webhook on a `marker` namespace
 * tells when a configuration is in effect.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { startWebhookServer, type WebhookServer } from "./testing.ts";

const arv1 = "/apis/admissionregistration.k8s.io/v1";
const podsRule = { apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] };
type Condition = { name?: string; expression?: string };
type Pod = [name: string, namespace: string];

// match_conditions_test.go TestMatchConditions: the table, rows by upstream's names.
const unknownProperty = "object.nonExistentProperty == 'someval'";
const mixedWithError: Condition[] = [
  { name: "test1", expression: unknownProperty },
  { name: "test2", expression: "true" },
  { name: "test4", expression: "true" },
  { name: "test5", expression: unknownProperty },
];
const matchConditionRows: {
  name: string;
  matchConditions: Condition[];
  pods: Pod[];
  matchedPods: Pod[];
  expectErrorPod?: boolean;
  failPolicy?: "Fail" | "Ignore";
  errMessage?: string;
}[] = [
  {
    name: "pods in namespace kube-system is ignored",
    matchConditions: [{ name: "pods-in-kube-system-exempt.kubernetes.io", expression: "object.metadata.namespace != 'kube-system'" }],
    pods: [
      ["test1", "kube-system"],
      ["test2", "default"],
    ],
    matchedPods: [["test2", "default"]],
  },
  {
    name: "matchConditions are ANDed together",
    matchConditions: [
      { name: "pods-in-kube-system-exempt.kubernetes.io", expression: "object.metadata.namespace != 'kube-system'" },
      { name: "pods-with-name-test1.kubernetes.io", expression: "object.metadata.name == 'test1'" },
    ],
    pods: [
      ["test1", "kube-system"],
      ["test1", "default"],
      ["test2", "default"],
    ],
    matchedPods: [["test1", "default"]],
  },
  {
    name: "mix of true, error and false should not match and not call webhook",
    matchConditions: [
      { name: "test1", expression: unknownProperty },
      { name: "test2", expression: "true" },
      { name: "test3", expression: "false" },
      { name: "test4", expression: "true" },
      { name: "test5", expression: unknownProperty },
    ],
    pods: [
      ["test1", "kube-system"],
      ["test2", "default"],
    ],
    matchedPods: [],
  },
  {
    name: "mix of true and error should reject request without fail policy",
    matchConditions: mixedWithError,
    pods: [
      ["test1", "kube-system"],
      ["test2", "default"],
    ],
    matchedPods: [],
    expectErrorPod: true,
  },
  {
    name: "mix of true and error should reject request with fail policy fail",
    matchConditions: mixedWithError,
    pods: [
      ["test1", "kube-system"],
      ["test2", "default"],
    ],
    matchedPods: [],
    failPolicy: "Fail",
    expectErrorPod: true,
  },
  {
    name: "mix of true and error should match request and call webhook with fail policy ignore",
    matchConditions: mixedWithError,
    pods: [
      ["test1", "kube-system"],
      ["test2", "default"],
    ],
    matchedPods: [],
    failPolicy: "Ignore",
  },
  {
    name: "has access to oldObject",
    matchConditions: [{ name: "old-object-is-null.kubernetes.io", expression: "oldObject == null" }],
    pods: [["test2", "default"]],
    matchedPods: [["test2", "default"]],
  },
];

// match_conditions_test.go TestMatchConditionsWithStrictCostEnforcement: an authorizer check costs 350,000.
const checkCreate = (on: string) => `authorizer.group('').resource('pods').${on}.check('create').allowed()`;
const generateMatchConditionsWithAuthzCheck = (num: number, exp: string): Condition[] =>
  Array.from({ length: num }, (_, i) => ({ name: `test${i}`, expression: exp }));
const strictCostRows: typeof matchConditionRows = [
  {
    name: "with strict cost enforcement: exceed per call limit should reject request with fail policy fail",
    matchConditions: [{ name: "test1", expression: Array.from({ length: 3 }, () => checkCreate("namespace('default')")).join(" && ") }],
    pods: [["test1", "default"]],
    matchedPods: [],
    expectErrorPod: true,
    errMessage: "operation cancelled: actual cost limit exceeded",
  },
  {
    name: "with strict cost enforcement: exceed overall cost limit should reject request with fail policy fail",
    matchConditions: generateMatchConditionsWithAuthzCheck(8, `${checkCreate("name('test1')")} && ${checkCreate("name('test1')")}`),
    pods: [["test1", "kube-system"]],
    matchedPods: [],
    expectErrorPod: true,
    errMessage: "validation failed due to running out of cost budget, no further validation rules will be run",
  },
];

const repeatedMatchConditions = (size: number): Condition[] =>
  Array.from({ length: size }, (_, i) => ({ name: `repeated-${i}`, expression: "true" }));

// match_conditions_test.go TestMatchConditions_validation.
const validationRows: { name: string; matchConditions: Condition[]; expectError: boolean }[] = [
  { name: "valid match condition", matchConditions: [{ name: "true", expression: "true" }], expectError: false },
  {
    name: "multiple valid match conditions",
    matchConditions: [
      {
        name: "exclude-leases",
        expression: "!(request.resource.group == 'coordination.k8s.io' && request.resource.resource == 'leases')",
      },
      { name: "exclude-kubelet-requests", expression: "!('system:nodes' in request.userInfo.groups)" },
      {
        name: "breakglass",
        expression:
          "!authorizer.group('admissionregistration.k8s.io').resource('validatingwebhookconfigurations').name('my-webhook.example.com').check('breakglass').allowed()",
      },
    ],
    expectError: false,
  },
  {
    name: "invalid field should error",
    matchConditions: [{ name: "old-object-is-null.kubernetes.io", expression: "imnotafield == null" }],
    expectError: true,
  },
  { name: "missing expression should error", matchConditions: [{ name: "old-object-is-null.kubernetes.io" }], expectError: true },
  { name: "missing name should error", matchConditions: [{ expression: "oldObject == null" }], expectError: true },
  { name: "empty name should error", matchConditions: [{ name: "", expression: "oldObject == null" }], expectError: true },
  {
    name: "empty expression should error",
    matchConditions: [{ name: "test-empty-expression.kubernetes.io", expression: "" }],
    expectError: true,
  },
  {
    name: "duplicate name should error",
    matchConditions: [
      { name: "test1", expression: "oldObject == null" },
      { name: "test1", expression: "oldObject == null" },
    ],
    expectError: true,
  },
  { name: "name must be qualified name", matchConditions: [{ name: " test1", expression: "oldObject == null" }], expectError: true },
  { name: "less than 65 match conditions should pass", matchConditions: repeatedMatchConditions(64), expectError: false },
  { name: "more than 64 match conditions should error", matchConditions: repeatedMatchConditions(65), expectError: true },
];

const pod = (name: string, namespace: string, labels?: Record<string, string>) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace, ...(labels ? { labels } : {}) },
  spec: { containers: [{ name: "test", image: "test" }] },
});

describe("match_conditions_test", () => {
  let s: TestServer;
  let hook: WebhookServer;
  beforeAll(async () => {
    [s, hook] = await Promise.all([startTestServer(), startWebhookServer()]);
    expect((await s.send("POST", "/api/v1/namespaces", { metadata: { name: "marker" } })).status).toBe(201);
    expect((await s.send("POST", "/api/v1/namespaces/marker/pods", pod("marker", "marker", { marker: "true" }))).status).toBe(201);
  });
  afterAll(async () => {
    await Promise.all([s?.close(), hook?.close()]);
  });

  /** The configuration's two webhooks: the one under test, and the marker's. */
  const webhooks = (matchConditions: Condition[], failurePolicy?: "Fail" | "Ignore") =>
    [
      {
        name: "admission.integration.test",
        rules: [{ operations: ["CREATE"], ...podsRule }],
        clientConfig: { url: `${hook.url}/allow`, caBundle: hook.caBundle },
        namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "NotIn", values: ["marker"] }] },
        matchConditions,
      },
      {
        name: "admission.integration.test.marker",
        rules: [{ operations: ["*"], ...podsRule }],
        clientConfig: { url: `${hook.url}/marker`, caBundle: hook.caBundle },
        namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "marker" } },
        objectSelector: { matchLabels: { marker: "true" } },
      },
    ].map((w) => ({ ...w, sideEffects: "None", admissionReviewVersions: ["v1"], ...(failurePolicy ? { failurePolicy } : {}) }));

  /** Creates the configuration and patches the marker until the marker webhook is called. */
  async function configure(kind: "validating" | "mutating", row: (typeof matchConditionRows)[number]): Promise<() => Promise<void>> {
    const path = `${arv1}/${kind}webhookconfigurations`;
    const r = await s.send("POST", path, {
      metadata: { name: "admission.integration.test" },
      webhooks: webhooks(row.matchConditions, row.failPolicy),
    });
    expect(r.status, r.text).toBe(201);
    await eventually(
      async () => {
        await s.send("PATCH", "/api/v1/namespaces/marker/pods/marker", [], "application/json-patch+json");
        return hook.reviews.some((v) => v.path === "/marker");
      },
      { what: `${kind} configuration in effect` },
    );
    hook.reviews.length = 0;
    return async () => {
      expect((await s.request(`${path}/admission.integration.test`, { method: "DELETE" })).status).toBe(200);
      // Wait for the deletion to be seen, so that the next row's configuration of the same name is the one in effect.
      await eventually(
        async () => {
          hook.reviews.length = 0;
          await s.send("PATCH", "/api/v1/namespaces/marker/pods/marker", [], "application/json-patch+json");
          return !hook.reviews.some((v) => v.path === "/marker");
        },
        { what: `${kind} configuration withdrawn` },
      );
    };
  }

  describe.each([
    ["TestMatchConditions", "validating", matchConditionRows],
    ["TestMatchConditions", "mutating", matchConditionRows],
    ["TestMatchConditionsWithStrictCostEnforcement", "validating", strictCostRows],
    ["TestMatchConditionsWithStrictCostEnforcement", "mutating", strictCostRows],
  ] as const)("%s (%s)", (_test, kind, rows) => {
    it.each(rows)("$name", async (row) => {
      const remove = await configure(kind, row);
      try {
        for (const [name, namespace] of row.pods) {
          const r = await s.send("POST", `/api/v1/namespaces/${namespace}/pods?dryRun=All`, pod(name, namespace));
          if (row.expectErrorPod) expect(r.status, r.text).toBeGreaterThanOrEqual(400);
          else expect(r.status, r.text).toBe(201);
          if (row.errMessage !== undefined) expect((r.json() as { message: string }).message).toContain(row.errMessage);
        }
        const requests = hook.reviews.filter((v) => v.path === "/allow").map((v) => [v.request.name, v.request.namespace]);
        expect(requests).toEqual(row.matchedPods);
      } finally {
        await remove();
      }
    });
  });

  it.each(validationRows)("TestMatchConditions_validation: $name", async ({ matchConditions, expectError }) => {
    const webhook = {
      name: "admission.integration.test",
      rules: [{ operations: ["CREATE"], ...podsRule }],
      clientConfig: { url: "https://localhost:1234/server", caBundle: hook.caBundle },
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
      matchConditions,
    };
    for (const kind of ["validating", "mutating"]) {
      const r = await s.send("POST", `${arv1}/${kind}webhookconfigurations?dryRun=All`, {
        metadata: { name: "admission.integration.test" },
        webhooks: [webhook],
      });
      if (expectError) {
        expect(r.status, r.text).toBe(422);
        expect((r.json() as { reason: string }).reason).toBe("Invalid");
      } else expect(r.status, r.text).toBe(201);
    }
  });
});
