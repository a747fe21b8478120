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
