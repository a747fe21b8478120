/**
 * Upstream's TestPolicyAdmission (test/integration/apiserver/cel/admission_policy_test.go, with the
 * matrix of admission_test_util.go) over HTTP: every resource and subresource this server's
 * discovery lists with a write verb is written with each of its verbs by an impersonated client,
 * through two ValidatingAdmissionPolicies that match everything (Exact `*` / `* /*`, and one rule
 * per resource with matchPolicy Equivalent), bound with validationActions Warn and a ConfigMap
 * param per policy. The policies always fail, and their messageExpression writes what the request
 * looked like to CEL (resource, subresource, operation, name, namespace, object and oldObject kinds,
 * options, and the binding's params) as a CSV record after a sentinel: each warning, parsed, must
 * be the request upstream's holder expects. The policies' own resources and the reviews are never
 * judged. admissionregistration.k8s.io/v1beta1 is not served by this server, so upstream's v1beta1
 * policies (TestPolicyAdmissionV1beta1, and 1.33's second pair) have no counterpart here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startTestServer, type TestResponse, type TestServer } from "../../../../server/testing.ts";
import { testNamespace } from "../../webhook/admission-stubs-testing.ts";
import {
  convertedResources,
  discoverResources,
  recordMatches,
  verifyRecord,
  type AdmissionRecord,
  type AdmissionRecorder,
  type DiscoveredResources,
  type Expectation,
} from "../../admission-matrix-testing.ts";
import { AdmissionMatrix } from "../../admission-matrix-verbs-testing.ts";
import { beginSentinel, createV1ValidatingPolicyAndBinding, parsePolicyWarnings, type PolicyOptions } from "./admission-policy-testing.ts";

const supportedVersions = ["v1"];

/**
 * admission_test_util.go admissionExemptResources: the policies' own resources, and the reviews
 * kube-apiserver excludes from admission (exclusion.Excluded()); webhook configurations are judged.
 */
const exempt = new Set([
  "admissionregistration.k8s.io/v1/validatingadmissionpolicies",
  "admissionregistration.k8s.io/v1/validatingadmissionpolicies/status",
  "admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
  "admissionregistration.k8s.io/v1/mutatingadmissionpolicies",
  "admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings",
  "admissionregistration.k8s.io/v1beta1/validatingadmissionpolicies",
  "admissionregistration.k8s.io/v1beta1/validatingadmissionpolicies/status",
  "admissionregistration.k8s.io/v1beta1/validatingadmissionpolicybindings",
  "admissionregistration.k8s.io/v1beta1/mutatingadmissionpolicies",
  "admissionregistration.k8s.io/v1beta1/mutatingadmissionpolicybindings",
  "admissionregistration.k8s.io/v1alpha1/mutatingadmissionpolicies",
  "admissionregistration.k8s.io/v1alpha1/mutatingadmissionpolicybindings",
  "authentication.k8s.io/v1/selfsubjectreviews",
  "authentication.k8s.io/v1beta1/selfsubjectreviews",
  "authentication.k8s.io/v1alpha1/selfsubjectreviews",
  "authentication.k8s.io/v1/tokenreviews",
  "authorization.k8s.io/v1/localsubjectaccessreviews",
  "authorization.k8s.io/v1/selfsubjectaccessreviews",
  "authorization.k8s.io/v1/selfsubjectrulesreviews",
  "authorization.k8s.io/v1/subjectaccessreviews",
]);

const allOptions: PolicyOptions[] = supportedVersions.flatMap((version) =>
  [true, false].map((converted) => ({ version, phase: "validation", converted })),
);
const nameOf = (o: PolicyOptions) => `${o.version}/${o.phase}/${String(o.converted)}`;

describe("TestPolicyAdmission", () => {
  let s: TestServer;
  let d: DiscoveredResources;
  let converted: ReturnType<typeof convertedResources>;

  /** policyExpectationHolder.verify: each warning's record, under the options its params name. */
  const recorder: AdmissionRecorder = {
    mark: () => 0,
    check(e: Expectation, _from: number, res: TestResponse): void {
      const records = parsePolicyWarnings(res.headers.get("warning") ?? "");
      for (const o of allOptions) {
        const gvr = o.converted ? converted.gvr.get(e.gvr)! : e.gvr;
        const record: AdmissionRecord | undefined = records
          .filter((r) => nameOf(r.params) === nameOf(o) && recordMatches(e, gvr, r.record))
          .at(-1)?.record;
        const what = `${e.gvr} ${e.operation} ${nameOf(o)}`;
        if (exempt.has(e.gvr)) {
          expect.soft(record, `${what}: admission webhook was called, but not supposed to`).toBeUndefined();
          continue;
        }
        verifyRecord(e, o.converted ? converted.gvk.get(e.gvr)! : e.kind, record, what);
      }
    },
  };

  beforeAll(async () => {
    s = await startTestServer({ runtimeConfig: "api/all=true" });
    d = await discoverResources(s);
    converted = convertedResources(d);
    const call = new AdmissionMatrix(s, d, recorder).call;
    const ns = await call("POST", "/api/v1/namespaces", { metadata: { name: testNamespace } });
    expect(ns.status, ns.text).toBe(201);
    await createV1ValidatingPolicyAndBinding(call, converted.rules);
    // Try to patch a ConfigMap and look for the warning: the policies and bindings are in effect.
    const cm = `/api/v1/namespaces/${testNamespace}/configmaps`;
    expect((await call("POST", cm, { metadata: { name: "test-k8s" } })).status).toBe(201);
    await eventually(
      async () => {
        const r = await call("PATCH", `${cm}/test-k8s`, [], "application/json-patch+json");
        return r.status === 200 && (r.headers.get("warning") ?? "").includes(beginSentinel);
      },
      { what: "policy and binding to establish" },
    );
    expect((await call("DELETE", `${cm}/test-k8s`)).status).toBe(200);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("every served resource and verb is judged by the policies as upstream expects", async () => {
    expect(d.toTest.length).toBeGreaterThan(30);
    await new AdmissionMatrix(s, d, recorder).run();
  });
});
