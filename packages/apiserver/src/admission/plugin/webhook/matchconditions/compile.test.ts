// environment/base.go adds library.AuthzSelectors to webhook matchConditions' environment only with AuthorizeWithSelectors on.
import { describe, expect, it } from "vitest";
import { AuthorizerValue } from "../../../../apiserver/cel/index.ts";
import { compileMatchCondition } from "./compile.ts";

describe("matchConditions under the AuthorizeWithSelectors gate", () => {
  const selecting = "authorizer.group('').resource('pods').labelSelector('app=web').check('list').allowed()";

  it("compile fieldSelector()/labelSelector() with the gate on (the default)", () => {
    expect(compileMatchCondition(selecting).error).toBeUndefined();
  });

  it("refuse them with the gate off, and keep the rest of the authorizer library", () => {
    expect(compileMatchCondition(selecting, { authorizeWithSelectors: false }).error?.detail).toMatch(
      /^compilation failed: .*labelSelector/,
    );
    expect(
      compileMatchCondition("authorizer.group('').resource('pods').check('list').allowed()", { authorizeWithSelectors: false }).error,
    ).toBeUndefined();
  });
});

// compile.go createEnvForOpts: MustBaseEnvSet(ver, StrictCostEnforcementForWebhooks) - the library
// cost estimator only with the gate on.
describe("matchConditions under the StrictCostEnforcementForWebhooks gate", () => {
  const check = "authorizer.group('').resource('pods').check('create').allowed()";
  const cost = (strictCost?: boolean) => {
    const r = compileMatchCondition(check, strictCost === undefined ? {} : { strictCost });
    if (r.error) throw r.error;
    const authorizer = new AuthorizerValue({ name: "alice", uid: "u1", groups: [] }, () => ({ decision: "Allow", reason: "" }));
    return r.program.evaluate({ authorizer }).cost;
  };
  it("charges an authorization check 350,000 with the gate on (the default) and its call alone off", () => {
    expect(cost()).toBe(350004);
    expect(cost(false)).toBe(5);
  });
});
