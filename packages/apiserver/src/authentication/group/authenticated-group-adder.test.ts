import { describe, expect, it } from "vitest";
import type { UserInfo } from "../user/user.ts";
import { AuthenticatedGroupAdder } from "./authenticated-group-adder.ts";

const adder = (user: UserInfo) => new AuthenticatedGroupAdder({ authenticateRequest: () => ({ user }) });
const groupsOf = async (user: UserInfo) => (await adder(user).authenticateRequest({ headers: {} }))?.user.groups;

// authenticated_group_adder_test.go
describe("AuthenticatedGroupAdder", () => {
  it("TestAuthenticatedGroupAdder", async () => {
    expect(await groupsOf({ name: "user", uid: "", groups: ["some-group"] })).toEqual(["some-group", "system:authenticated"]);
  });

  it("TestAuthenticatedGroupAdderNoDuplicate", async () => {
    expect(await groupsOf({ name: "user", uid: "", groups: ["some-group", "system:authenticated"] })).toEqual([
      "some-group",
      "system:authenticated",
    ]);
  });

  it("leaves system:unauthenticated members and the anonymous user alone", async () => {
    expect(await groupsOf({ name: "user", uid: "", groups: ["system:unauthenticated"] })).toEqual(["system:unauthenticated"]);
    expect(await groupsOf({ name: "system:anonymous", uid: "", groups: [] })).toEqual([]);
  });

  it("passes an unclaimed request on unclaimed", async () => {
    expect(
      await new AuthenticatedGroupAdder({ authenticateRequest: () => undefined }).authenticateRequest({ headers: {} }),
    ).toBeUndefined();
  });
});
