import { describe, expect, it } from "vitest";
import type { AuthResponse, Authenticator } from "../../authenticator/interfaces.ts";
import { newFailOnError, newUnion } from "./union.ts";

/** union_test.go's mockAuthRequestHandler. */
function mock(o: { user?: string; err?: string }): Authenticator & { called: boolean } {
  const m = {
    called: false,
    authenticateRequest(): AuthResponse | undefined {
      m.called = true;
      if (o.err) throw new Error(o.err);
      return o.user ? { user: { name: o.user, uid: "", groups: [] } } : undefined;
    },
  };
  return m;
}

const run = async (a: Authenticator) => {
  try {
    return { resp: await a.authenticateRequest({ headers: {} }) };
  } catch (e) {
    return { err: (e as Error).message };
  }
};

// union_test.go
describe("union", () => {
  it("TestAuthenticateRequestSecondPasses", async () => {
    const h1 = mock({});
    const h2 = mock({ user: "fresh_ferret" });
    expect((await run(newUnion(h1, h2))).resp?.user.name).toBe("fresh_ferret");
    expect(h1.called && h2.called).toBe(true);
  });

  it("TestAuthenticateRequestFirstPasses", async () => {
    const h1 = mock({ user: "fresh_ferret" });
    const h2 = mock({ user: "elegant_sheep" });
    expect((await run(newUnion(h1, h2))).resp?.user.name).toBe("fresh_ferret");
    expect(h2.called).toBe(false);
  });

  it("TestAuthenticateRequestSuppressUnnecessaryErrors", async () => {
    expect((await run(newUnion(mock({ err: "first" }), mock({ user: "fresh_ferret" })))).resp?.user.name).toBe("fresh_ferret");
  });

  it("TestAuthenticateRequestNoAuthenticators", async () => {
    expect(await run(newUnion())).toEqual({ resp: undefined });
  });

  it("TestAuthenticateRequestNonePass", async () => {
    expect(await run(newUnion(mock({}), mock({})))).toEqual({ resp: undefined });
  });

  it("TestAuthenticateRequestAdditiveErrors", async () => {
    expect((await run(newUnion(mock({ err: "first" }), mock({ err: "second" })))).err).toBe("[first, second]");
  });

  it("TestAuthenticateRequestFailEarly", async () => {
    const h2 = mock({ user: "fresh_ferret" });
    expect((await run(newFailOnError(mock({ err: "first" }), h2))).err).toBe("first");
    expect(h2.called).toBe(false);
  });
});
