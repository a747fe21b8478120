/** caching_authorizer_test.go TestCachingAuthorizer, and the waits for decisions an authorizer cannot give at once. */
import { describe, expect, it } from "vitest";
import { attributes, type Attributes, type AuthorizationResult, type Authorizer } from "../../../../authorization/authorizer/interfaces.ts";
import { selectorAttributes } from "../../../../authorization/authorizer/selectors.ts";
import { CachingAuthorizer, DecisionPending } from "./caching-authorizer.ts";
import { compilePolicy } from "./compile.ts";
import { validate } from "./validator.ts";

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

  it("fetches the first missing check of each top-level expression after one pass, in the order met", async () => {
    const { z, asked } = recording(true);
    const c = new CachingAuthorizer(z);
    let passes = 0;
    // Three expressions, as the validator runs them; a missing decision is the expression's error.
    const expression = (...subresources: string[]) => {
      c.beginExpression();
      try {
        return subresources.map((s) => c.authorize(check(s)).reason).join("");
      } catch {
        return "error";
      }
    };
    const fn = () => (passes++, [expression("a", "b"), expression("c"), expression("a", "d")].join(","));
    expect(await c.evaluate(fn)).toBe("ab,c,ad");
    // Pass 1 fetches a and c (the third expression's a is already asked); pass 2 fetches b and d; pass 3 completes.
    expect(asked).toEqual(["a", "c", "b", "d"]);
    expect(passes).toBe(3);
  });

  it("N independent expressions cost two passes, whatever N", async () => {
    for (const n of [1, 4, 12]) {
      const { z, asked } = recording(true);
      const c = new CachingAuthorizer(z);
      let passes = 0;
      const subresources = Array.from({ length: n }, (_, i) => `s${i}`);
      const fn = () => {
        passes++;
        return subresources.map((s) => {
          c.beginExpression();
          try {
            return c.authorize(check(s)).reason;
          } catch {
            return "error";
          }
        });
      };
      expect(await c.evaluate(fn)).toEqual(subresources);
      expect(asked).toEqual(subresources);
      expect(passes).toBe(2);
    }
  });

  it("a synchronous answer after a fetch is begun waits its turn, so the authorizer sees the checks in order", async () => {
    const asked: string[] = [];
    const z: Authorizer = {
      authorize: (a) => {
        asked.push(a.subresource);
        const r: AuthorizationResult = { decision: "Allow", reason: a.subresource };
        return a.subresource === "slow" ? Promise.resolve(r) : r;
      },
    };
    const c = new CachingAuthorizer(z);
    const expression = (s: string) => {
      c.beginExpression();
      try {
        return c.authorize(check(s)).reason;
      } catch {
        return "error";
      }
    };
    expect(await c.evaluate(() => [expression("fast"), expression("slow"), expression("after")])).toEqual(["fast", "slow", "after"]);
    expect(asked).toEqual(["fast", "slow", "after"]);
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

describe("the validator with a CachingAuthorizer over a webhook-like authorizer", () => {
  const policy = (expressions: string[]) =>
    compilePolicy({
      metadata: { name: "p" },
      spec: { validations: expressions.map((expression) => ({ expression })) },
    });
  const request = {
    operation: "CREATE" as const,
    name: "cm",
    namespace: "default",
    resource: { group: "", version: "v1", resource: "configmaps" },
    subresource: "",
    kind: { group: "", version: "v1", kind: "ConfigMap" },
    dryRun: false,
    userInfo: { username: "alice", uid: "1234", groups: [] },
  };
  const rows = [
    {
      name: "independent validations: fetched after one pass, in order",
      expressions: ["a", "b", "c"].map((s) => `authorizer.requestResource.subresource('${s}').check('test').reason() == '${s}'`),
      asked: ["a", "b", "c"],
      passes: 2,
    },
    {
      name: "checks chained in one expression: one pass each, the skipped one never asked",
      expressions: [
        "authorizer.requestResource.subresource('deny').check('test').allowed() && authorizer.requestResource.subresource('never').check('test').allowed()",
        "!authorizer.requestResource.subresource('a').check('test').allowed() || authorizer.requestResource.subresource('b').check('test').reason() == 'b'",
      ],
      asked: ["deny", "a", "b"],
      passes: 3,
    },
  ];
  it.each(rows)("$name", async ({ expressions, asked: want, passes: wantPasses }) => {
    const { z, asked } = recording(true);
    const c = new CachingAuthorizer(z);
    const compiled = policy(expressions);
    let passes = 0;
    const r = await c.evaluate(() => (passes++, validate(compiled, request, null, null, "Fail", c.authorize, c.beginExpression)));
    expect(r.decisions.map((d) => d.evaluation)).toEqual(expressions.map((_, i) => (i === 0 && want[0] === "deny" ? "deny" : "admit")));
    expect(asked).toEqual(want);
    expect(passes).toBe(wantPasses);
  });
});
