import { describe, expect, it } from "vitest";
import { answerReview, findReview } from "./reviews.ts";

const whoami = findReview("authentication.k8s.io", "v1", "selfsubjectreviews", false)!;
const ctx = { namespace: "", authorizer: undefined, ruleResolver: undefined };

describe("SelfSubjectReview userInfo (authenticationv1.UserInfo: uid and extra omitempty)", () => {
  it.each([
    {
      name: "a client-certificate user has no uid",
      user: { name: "kubernetes-admin", uid: "", groups: ["system:masters", "system:authenticated"] },
      want: { username: "kubernetes-admin", groups: ["system:masters", "system:authenticated"] },
    },
    {
      name: "a token user keeps its uid",
      user: { name: "alice", uid: "42", groups: ["system:authenticated"] },
      want: { username: "alice", uid: "42", groups: ["system:authenticated"] },
    },
    {
      name: "an impersonated user's extra is shown",
      user: { name: "bob", uid: "", groups: ["system:authenticated"], extra: { scopes: ["view"] } },
      want: { username: "bob", groups: ["system:authenticated"], extra: { scopes: ["view"] } },
    },
  ])("$name", async ({ user, want }) => {
    const r = (await answerReview(whoami, {}, { ...ctx, user })) as { status: { userInfo: unknown } };
    expect(r.status.userInfo).toStrictEqual(want);
  });
});

describe("review admission (create.go: mutating admission, then the REST's createValidation)", () => {
  const user = { name: "alice", uid: "", groups: ["system:authenticated"] };
  const review = (resource: string, namespaced = false) =>
    findReview(
      resource.includes("token") || resource === "selfsubjectreviews" ? "authentication.k8s.io" : "authorization.k8s.io",
      "v1",
      resource,
      namespaced,
    )!;
  const spec = { resourceAttributes: { verb: "get", resource: "pods", namespace: "ns" } };
  it.each([
    { resource: "selfsubjectreviews", body: {}, validated: true },
    { resource: "tokenreviews", body: { spec: { token: "t" } }, validated: true },
    { resource: "selfsubjectaccessreviews", body: { spec }, validated: true },
    { resource: "subjectaccessreviews", body: { spec: { ...spec, user: "bob" } }, validated: true },
    {
      resource: "localsubjectaccessreviews",
      body: { metadata: { namespace: "ns" }, spec: { ...spec, user: "bob" } },
      validated: true,
      ns: "ns",
    },
    // selfsubjectrulesreview/rest.go's Create takes no createValidation.
    { resource: "selfsubjectrulesreviews", body: { spec: { namespace: "ns" } }, validated: false },
  ])("$resource", async ({ resource, body, validated, ns }) => {
    const def = review(resource, ns !== undefined);
    const admitted: Record<string, unknown>[] = [];
    const seen: Record<string, unknown>[] = [];
    await answerReview(def, body, {
      ...ctx,
      namespace: ns ?? "",
      user,
      admit: async (obj) => {
        admitted.push(structuredClone(obj));
        obj["bar"] = "test";
      },
      createValidation: async (obj) => {
        seen.push(obj);
      },
    });
    expect(admitted).toHaveLength(1);
    expect(admitted[0]).toMatchObject({ apiVersion: `${def.group}/v1`, kind: def.kind, metadata: {} });
    // Validation sees what mutating admission left.
    expect(seen).toEqual(validated ? [expect.objectContaining({ bar: "test", kind: def.kind })] : []);
  });

  it("a refusal of validating admission is the answer", async () => {
    const def = review("selfsubjectaccessreviews");
    const refused = new Error("denied");
    await expect(answerReview(def, { spec }, { ...ctx, user, createValidation: () => Promise.reject(refused) })).rejects.toBe(refused);
  });
});
