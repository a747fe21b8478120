import { describe, expect, it } from "vitest";
import { AnonymousAuthenticator } from "./anonymous.ts";

// anonymous_test.go
describe("anonymous", () => {
  it("TestAnonymous", () => {
    expect(new AnonymousAuthenticator().authenticateRequest().user).toEqual({
      name: "system:anonymous",
      uid: "",
      groups: ["system:unauthenticated"],
    });
  });
});
