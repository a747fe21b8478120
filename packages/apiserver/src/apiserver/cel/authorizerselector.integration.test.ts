/**
 * upstream test/integration/apiserver/cel/authorizerselector (helper.go RunAuthzSelectorsLibraryTests,
 * selectorenabled TestAuthzSelectorsLibraryEnabled and selectordisabled TestAuthzSelectorsLibraryDisabled):
 * objects whose CEL calls `fieldSelector()` on an authorizer check are written with the
 * AuthorizeWithSelectors gate on and off, and validation compiles them in the environment the gate
 * gives (environment/base.go adds the AuthzSelectors library only with it). Every cause of the 422
 * must match one expected pattern, and every pattern one cause. Upstream's ResourceClaimParameters
 * row (resource.k8s.io/v1alpha2) is left out: that API is not served here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFeatureGates } from "../../features/kube-features.ts";
import { startTestServer, type TestServer } from "../../server/testing.ts";

const boolFieldSelectorExpression = "type(authorizer.group('').resource('').fieldSelector('')) == string";
const stringFieldSelectorExpression = `${boolFieldSelectorExpression} ? 'yes' : 'no'`;
const fieldSelectorErrorSubstring = "undeclared reference to 'fieldSelector'";

const rules = [{ operations: ["*"], apiGroups: ["example.com"], apiVersions: ["*"], resources: ["*"] }];
const webhook = {
  name: "test.example.com",
  clientConfig: { url: "https://127.0.0.1" },
  admissionReviewVersions: ["v1"],
  sideEffects: "None",
  rules,
  matchConditions: [{ name: "test", expression: boolFieldSelectorExpression }],
};
const crd = (rule: Record<string, unknown>, properties?: Record<string, unknown>) => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "crontabs.apis.example.com" },
  spec: {
    group: "apis.example.com",
    scope: "Namespaced",
    names: { plural: "crontabs", singular: "crontab", kind: "CronTab", listKind: "CronTabList" },
    versions: [
      {
        name: "v1beta1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties, "x-kubernetes-validations": [rule] } } },
        },
      },
    ],
  },
});

interface Case {
  name: string;
  path: string;
  body: unknown;
  expectErrorsWhenEnabled: RegExp[];
  expectErrorsWhenDisabled: RegExp[];
}

const testcases: Case[] = [
  {
    name: "ValidatingAdmissionPolicy",
    path: "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies",
    body: {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingAdmissionPolicy",
      metadata: { name: "test-with-variables" },
      spec: {
        matchConstraints: { resourceRules: rules },
        validations: [{ expression: boolFieldSelectorExpression, messageExpression: stringFieldSelectorExpression }],
        auditAnnotations: [{ key: "test", valueExpression: stringFieldSelectorExpression }],
        matchConditions: [{ name: "test", expression: boolFieldSelectorExpression }],
        variables: [{ name: "test", expression: boolFieldSelectorExpression }],
      },
    },
    // authorizer is not available to messageExpression
    expectErrorsWhenEnabled: [/spec\.validations\[0\]\.messageExpression:.*undeclared reference to 'authorizer'/],
    expectErrorsWhenDisabled: [
      new RegExp(`spec\\.validations\\[0\\]\\.expression:.*${fieldSelectorErrorSubstring}`),
      /spec\.validations\[0\]\.messageExpression:.*undeclared reference to 'authorizer'/,
      new RegExp(`spec\\.auditAnnotations\\[0\\]\\.valueExpression:.*${fieldSelectorErrorSubstring}`),
      new RegExp(`spec\\.matchConditions\\[0\\]\\.expression:.*${fieldSelectorErrorSubstring}`),
      new RegExp(`spec\\.variables\\[0\\]\\.expression:.*${fieldSelectorErrorSubstring}`),
    ],
  },
  {
    name: "ValidatingWebhookConfiguration",
    path: "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
    body: {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingWebhookConfiguration",
      metadata: { name: "test" },
      webhooks: [webhook],
    },
    expectErrorsWhenEnabled: [],
    expectErrorsWhenDisabled: [new RegExp(`webhooks\\[0\\]\\.matchConditions\\[0\\]\\.expression:.*${fieldSelectorErrorSubstring}`)],
  },
  {
    name: "MutatingWebhookConfiguration",
    path: "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
    body: {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "MutatingWebhookConfiguration",
      metadata: { name: "test" },
      webhooks: [webhook],
    },
    expectErrorsWhenEnabled: [],
    expectErrorsWhenDisabled: [new RegExp(`webhooks\\[0\\]\\.matchConditions\\[0\\]\\.expression:.*${fieldSelectorErrorSubstring}`)],
  },
  {
    name: "CustomResourceDefinition - rule",
    path: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
    body: crd({ rule: boolFieldSelectorExpression }),
    // authorizer is not available to CRD validation
    expectErrorsWhenEnabled: [/x-kubernetes-validations\[0\]\.rule:.*undeclared reference to 'authorizer'/],
    expectErrorsWhenDisabled: [/x-kubernetes-validations\[0\]\.rule:.*undeclared reference to 'authorizer'/],
  },
  {
    name: "CustomResourceDefinition - messageExpression",
    path: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
    body: crd({ rule: "self == oldSelf", messageExpression: stringFieldSelectorExpression }),
    expectErrorsWhenEnabled: [/x-kubernetes-validations\[0\]\.messageExpression:.*undeclared reference to 'authorizer'/],
    expectErrorsWhenDisabled: [/x-kubernetes-validations\[0\]\.messageExpression:.*undeclared reference to 'authorizer'/],
  },
  {
    // Not upstream's row: a rule that reaches `fieldSelector` without `authorizer`, so the gate
    // alone decides. An int-or-string is `dyn` to the checker (model/schemas.go), so with the gate
    // the call resolves to the ResourceCheck overload and compiles; without it the function is
    // undeclared.
    name: "CustomResourceDefinition - fieldSelector on a dyn value",
    path: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
    body: crd({ rule: "type(self.a.fieldSelector('')) == string" }, { a: { "x-kubernetes-int-or-string": true } }),
    expectErrorsWhenEnabled: [],
    expectErrorsWhenDisabled: [new RegExp(`x-kubernetes-validations\\[0\\]\\.rule:.*${fieldSelectorErrorSubstring}`)],
  },
];

interface StatusBody {
  details?: { causes?: { field?: string; message?: string }[] };
}

/** getCauses: each cause as `field: message`. */
const getCauses = (body: StatusBody): string[] => (body.details?.causes ?? []).map((c) => `${c.field ?? ""}: ${c.message ?? ""}`);

function runAuthzSelectorsLibraryTests(featureEnabled: boolean): void {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ featureGates: parseFeatureGates(`AuthorizeWithSelectors=${featureEnabled}`) });
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each(testcases)("$name", async (tc) => {
    const r = await s.send("POST", tc.path, tc.body);
    const expected = featureEnabled ? tc.expectErrorsWhenEnabled : tc.expectErrorsWhenDisabled;
    if (expected.length === 0) {
      expect(r.status, r.text).toBe(201);
      return;
    }
    expect(r.status, r.text).toBe(422);
    const causes = getCauses(r.json() as StatusBody);
    expect(causes.length, r.text).toBeGreaterThan(0);
    for (const want of expected) {
      const i = causes.findIndex((c) => want.test(c));
      expect(i, `missing error matching ${want.source} in\n${causes.join("\n\n")}`).toBeGreaterThanOrEqual(0);
      causes.splice(i, 1);
    }
    expect(causes, "unexpected errors").toEqual([]);
  });
}

describe("TestAuthzSelectorsLibraryEnabled", () => runAuthzSelectorsLibraryTests(true));
describe("TestAuthzSelectorsLibraryDisabled", () => runAuthzSelectorsLibraryTests(false));
