/**
 * Upstream test/integration/apiapproval_test.go (TestAPIApproval) over HTTP: a CRD outside the
 * protected groups has no KubernetesAPIApprovalPolicyConformant condition, one in `sigs.k8s.io`
 * with an approval URL gets it True; and the validation of the `api-approved.kubernetes.io`
 * annotation (validation.go validateAPIApproval) with the controller's other reasons.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { allowAllSchema, createCRD, json, noxuCRD } from "./fixtures-testing.ts";

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}
type CRD = { status?: { conditions?: Condition[] } };

const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const approval = "KubernetesAPIApprovalPolicyConformant";
const see = "see https://github.com/kubernetes/enhancements/pull/1111";

/** newSigKubeAPIFn: a CRD of group sigs.k8s.io with the annotation set to `approvalAnnotation`. */
function newSigKubeAPI(resource: string, approvalAnnotation: string): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${resource}.sigs.k8s.io`, annotations: { "api-approved.kubernetes.io": approvalAnnotation } },
    spec: {
      group: "sigs.k8s.io",
      versions: [{ name: "v1beta1", served: true, storage: true, schema: { openAPIV3Schema: allowAllSchema } }],
      names: { plural: resource, singular: `${resource}singular`, kind: `${resource}Kind`, listKind: `${resource}List` },
      scope: "Namespaced",
    },
  };
}

describe("apiextensions apiapproval_test TestAPIApproval", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  const condition = async (name: string): Promise<Condition | undefined> =>
    ((await s.request(`${crds}/${name}`)).json() as CRD).status?.conditions?.find((c) => c.type === approval);

  it("TestAPIApproval: no condition outside the protected groups, True for an approved sigs.k8s.io API", async () => {
    const noxu = (await createCRD(s, noxuCRD("Namespaced"))) as CRD;
    expect(noxu.status?.conditions?.find((c) => c.type === approval)).toBeUndefined();

    await createCRD(s, newSigKubeAPI("approved", "https://github.com/kubernetes/kubernetes/pull/79724"));
    const cond = await eventually(async () => {
      const c = await condition("approved.sigs.k8s.io");
      expect(c?.status).toBe("True");
      return c!;
    });
    expect(cond).toMatchObject({
      reason: "ApprovedAnnotation",
      message: "approved in https://github.com/kubernetes/kubernetes/pull/79724",
    });
  });

  it("an unapproved API is served with the condition False, and turns True once approved", async () => {
    await createCRD(s, newSigKubeAPI("unapproved", "unapproved, experimental-only"));
    await eventually(async () =>
      expect(await condition("unapproved.sigs.k8s.io")).toMatchObject({
        status: "False",
        reason: "UnapprovedAnnotation",
        message: 'not approved: "unapproved, experimental-only"',
      }),
    );
    const patched = await s.request(`${crds}/unapproved.sigs.k8s.io`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({
        metadata: { annotations: { "api-approved.kubernetes.io": "https://github.com/kubernetes/enhancements/pull/1111" } },
      }),
    });
    expect(patched.status, patched.text).toBe(200);
    await eventually(async () => expect((await condition("unapproved.sigs.k8s.io"))?.reason).toBe("ApprovedAnnotation"));
  });

  it("a protected group without a valid annotation is refused (validateAPIApproval)", async () => {
    const missing = newSigKubeAPI("missing", "");
    (missing["metadata"] as { annotations?: unknown }).annotations = undefined;
    const r = await s.request(crds, { method: "POST", headers: json, body: JSON.stringify(missing) });
    expect(r.status).toBe(422);
    expect((r.json() as { message: string }).message).toBe(
      `CustomResourceDefinition.apiextensions.k8s.io "missing.sigs.k8s.io" is invalid: metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", ${see}`,
    );

    const invalid = await s.request(crds, { method: "POST", headers: json, body: JSON.stringify(newSigKubeAPI("invalid", "Unapproved")) });
    expect(invalid.status).toBe(422);
    expect((invalid.json() as { message: string }).message).toBe(
      `CustomResourceDefinition.apiextensions.k8s.io "invalid.sigs.k8s.io" is invalid: metadata.annotations[api-approved.kubernetes.io]: Invalid value: "Unapproved": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", ${see}`,
    );
    expect((await s.request(`${crds}/invalid.sigs.k8s.io`)).status).toBe(404);
  });
});
