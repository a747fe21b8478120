import { describe, expect, it } from "vitest";
import type { TokenAuthenticator } from "../../authenticator/interfaces.ts";
import { UnionTokenAuthenticator } from "./union.ts";

const user = (name: string): TokenAuthenticator => ({ authenticateToken: () => ({ user: { name, uid: "", groups: [] } }) });
const none: TokenAuthenticator = { authenticateToken: () => undefined };
const failing = (msg: string): TokenAuthenticator => ({
  authenticateToken: () => {
    throw new Error(msg);
  },
});

// token/union/unionauth_test.go.
describe("UnionTokenAuthenticator", () => {
  it("the first that knows the token wins (TestAuthenticateTokenSecondPasses)", async () => {
    const u = new UnionTokenAuthenticator([none, user("b"), user("c")]);
    expect((await u.authenticateToken("t"))?.user.name).toBe("b");
  });
  it("a later success wins over an earlier error (TestAuthenticateTokenSuppressUnnecessaryErrors)", async () => {
    const u = new UnionTokenAuthenticator([failing("first"), user("b")]);
    expect((await u.authenticateToken("t"))?.user.name).toBe("b");
  });
  it("no one: undefined (TestAuthenticateTokenNonePass)", async () => {
    expect(await new UnionTokenAuthenticator([none, none]).authenticateToken("t")).toBeUndefined();
  });
  it("errors aggregate, duplicates once (TestAuthenticateTokenAdditiveErrors)", async () => {
    await expect(new UnionTokenAuthenticator([failing("a"), failing("b"), failing("a")]).authenticateToken("t")).rejects.toThrow("[a, b]");
    await expect(new UnionTokenAuthenticator([failing("a"), none]).authenticateToken("t")).rejects.toThrow(/^a$/);
  });
  it("passes the request's audiences", async () => {
    let seen: readonly string[] | undefined;
    await new UnionTokenAuthenticator([{ authenticateToken: (_t, a) => ((seen = a), undefined) }]).authenticateToken("t", ["x"]);
    expect(seen).toEqual(["x"]);
  });
});
