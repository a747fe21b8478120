/** union.go's decisions (union_test.go), with and without a promise. */
import { describe, expect, it } from "vitest";
import { attributes, type AuthorizationResult, type Authorizer } from "../authorizer/interfaces.ts";
import { UnionAuthorizer } from "./union.ts";

const fixed = (r: AuthorizationResult): Authorizer => ({ authorize: () => r });
const later = (r: AuthorizationResult): Authorizer => ({ authorize: () => Promise.resolve(r) });
const a = attributes({ verb: "get" });

describe("UnionAuthorizer", () => {
  it.each([
    {
      name: "the first Allow decides",
      members: [
        fixed({ decision: "NoOpinion", reason: "n1" }),
        fixed({ decision: "Allow", reason: "ok" }),
        fixed({ decision: "Deny", reason: "no" }),
      ],
      want: { decision: "Allow", reason: "ok" },
    },
    {
      name: "the first Deny decides",
      members: [fixed({ decision: "Deny", reason: "no" }), fixed({ decision: "Allow", reason: "ok" })],
      want: { decision: "Deny", reason: "no" },
    },
    {
      name: "NoOpinion joins reasons and errors",
      members: [fixed({ decision: "NoOpinion", reason: "r1", error: "e1" }), fixed({ decision: "NoOpinion", reason: "r2", error: "e2" })],
      want: { decision: "NoOpinion", reason: "r1\nr2", error: "[e1, e2]" },
    },
  ])("$name", async ({ members, want }) => {
    const u = new UnionAuthorizer(members);
    expect(u.authorize(a)).toEqual(want);
  });

  it("answers without a promise while every member asked does, and waits only from the first that does not", async () => {
    const sync = new UnionAuthorizer([fixed({ decision: "NoOpinion", reason: "r1" }), fixed({ decision: "Allow", reason: "ok" })]);
    expect(sync.authorize(a)).toEqual({ decision: "Allow", reason: "ok" });
    // The Allow before the asynchronous member decides: it is never asked.
    let asked = 0;
    const counting: Authorizer = { authorize: () => (asked++, Promise.resolve({ decision: "Deny", reason: "no" })) };
    expect(new UnionAuthorizer([fixed({ decision: "Allow", reason: "" }), counting]).authorize(a)).toEqual({
      decision: "Allow",
      reason: "",
    });
    expect(asked).toBe(0);
    const mixed = new UnionAuthorizer([
      fixed({ decision: "NoOpinion", reason: "r1", error: "e1" }),
      later({ decision: "NoOpinion", reason: "r2" }),
      fixed({ decision: "Deny", reason: "no" }),
    ]);
    const r = mixed.authorize(a);
    expect(r).toBeInstanceOf(Promise);
    expect(await r).toEqual({ decision: "Deny", reason: "no" });
    expect(await new UnionAuthorizer([later({ decision: "NoOpinion", reason: "r2", error: "e2" })]).authorize(a)).toEqual({
      decision: "NoOpinion",
      reason: "r2",
      error: "e2",
    });
  });

  it("nests: a union inside a union decides synchronously", () => {
    const inner = new UnionAuthorizer([fixed({ decision: "Allow", reason: "inner" })]);
    expect(new UnionAuthorizer([inner]).authorize(a)).toEqual({ decision: "Allow", reason: "inner" });
  });
});
