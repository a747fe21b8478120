/** caching_authorizer_test.go TestCachingAuthorizer, and the waits for decisions an authorizer cannot give at once. */
import { describe, expect, it } from "vitest";
import { attributes, type Attributes, type AuthorizationResult, type Authorizer } from "../../../../authorization/authorizer/interfaces.ts";
import { selectorAttributes } from "../../../../authorization/authorizer/selectors.ts";
import { CachingAuthorizer, DecisionPending } from "./caching-authorizer.ts";

/** An authorizer that records each check and answers with its subresource as the reason. */
function recording(later: boolean): { z: Authorizer; asked: string[] } {
  const asked: string[] = [];
  const z: Authorizer = {
    authorize: (a) => {
      asked.push(a.subresource);
      const r: AuthorizationResult = { decision: a.subresource === "deny" ? "Deny" : "Allow", reason: a.subresource };
      return later ? Promise.resolve(r) : r;
    },
  };
  return { z, asked };
}

const check = (subresource: string, o: Partial<Attributes> = {}) =>
  attributes({
    user: { name: "u", uid: "1", groups: ["a", "b"], extra: { k: ["x", "y"] } },
    verb: "get",
    resource: "pods",
    subresource,
    resourceRequest: true,
    ...o,
  });

describe("TestCachingAuthorizer", () => {
  it.each([
    { name: "hit: the same attributes", second: check("s"), calls: 1 },
    {
      name: "hit: groups and extra values in another order",
      second: check("s", { user: { name: "u", uid: "1", groups: ["b", "a"], extra: { k: ["y", "x"] } } }),
      calls: 1,
    },
    { name: "miss: another user", second: check("s", { user: { name: "v", uid: "1", groups: [] } }), calls: 2 },
    { name: "miss: another verb", second: check("s", { verb: "list" }), calls: 2 },
    { name: "miss: a field selector", second: check("s", selectorAttributes("spec.nodeName=n", undefined)), calls: 2 },
    { name: "hit: a selector that did not parse is not honoured", second: check("s", { fieldSelectorParsingErr: "bad" }), calls: 1 },
  ])("$name", ({ second, calls }) => {
    const { z, asked } = recording(false);
    const c = new CachingAuthorizer(z);
    expect(c.authorize(check("s"))).toEqual({ decision: "Allow", reason: "s" });
    c.authorize(second);
    expect(asked).toHaveLength(calls);
  });
});

describe("CachingAuthorizer.evaluate", () => {
  it("answers synchronous authorizers in one pass", async () => {
    const { z, asked } = recording(false);
    const c = new CachingAuthorizer(z);
    let passes = 0;
    expect(await c.evaluate(() => (passes++, c.authorize(check("a")).reason + c.authorize(check("b")).reason))).toBe("ab");
    expect(passes).toBe(1);
    expect(asked).toEqual(["a", "b"]);
  });

  it("waits for one decision at a time and evaluates again: the checks in evaluation order, each once", async () => {
    const { z, asked } = recording(true);
    const c = new CachingAuthorizer(z);
    let passes = 0;
    const fn = () => {
      passes++;
      return [c.authorize(check("a")), c.authorize(check("b")), c.authorize(check("a")), c.authorize(check("c"))]
        .map((r) => r.reason)
        .join("");
    };
    expect(await c.evaluate(fn)).toBe("abac");
    expect(asked).toEqual(["a", "b", "c"]);
    expect(passes).toBe(4);
  });

  it("never makes a check that short-circuiting skips, and reruns a pass that swallowed the wait", async () => {
    const { z, asked } = recording(true);
    const c = new CachingAuthorizer(z);
    // As CEL's `a || b`: an error on the left is absorbed, and b is evaluated.
    const orElse = (l: () => boolean, r: () => boolean) => {
      try {
        if (l()) return true;
      } catch {
        return r();
      }
      return r();
    };
    const allowed = (s: string) => () => c.authorize(check(s)).decision === "Allow";
    expect(await c.evaluate(() => orElse(allowed("first"), allowed("second")))).toBe(true);
    expect(asked).toEqual(["first"]);
  });

  it("returns what the last pass threw, and a rejected decision is an error, no opinion", async () => {
    const c = new CachingAuthorizer({ authorize: () => Promise.reject(new Error("boom")) });
    const r = await c.evaluate(() => c.authorize(check("x")));
    expect(r).toEqual({ decision: "NoOpinion", reason: "", error: "Error: boom" });
    await expect(
      c.evaluate(() => {
        throw new Error("fails");
      }),
    ).rejects.toThrow("fails");
    expect(new DecisionPending().message).toBe("authorization decision pending");
  });
});
