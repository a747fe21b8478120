import { describe, expect, it } from "vitest";
import { attributes } from "../../authorization/authorizer/interfaces.ts";
import { newTestRuleResolver } from "../../registry/rbac/validation/rule.ts";
import { newAuthorizer, parseAuthorizationModes } from "./config.ts";

describe("parseAuthorizationModes", () => {
  it("accepts upstream's comma list and rejects unknown or repeated modes", () => {
    expect(parseAuthorizationModes("RBAC")).toEqual(["RBAC"]);
    expect(parseAuthorizationModes("AlwaysAllow,RBAC")).toEqual(["AlwaysAllow", "RBAC"]);
    expect(() => parseAuthorizationModes("")).toThrow("at least one authorization-mode must be passed");
    expect(() => parseAuthorizationModes("Foo")).toThrow('authorization-mode "Foo" is not a valid mode');
    expect(() => parseAuthorizationModes("RBAC,RBAC")).toThrow('authorization-mode ["RBAC" "RBAC"] has mode specified more than once');
  });
});

describe("newAuthorizer", () => {
  const req = (groups: string[]) =>
    attributes({ user: { name: "u", uid: "", groups }, verb: "list", resource: "services", namespace: "default", resourceRequest: true });
  const rbac = () => newTestRuleResolver([], [], [], []);

  it("allows system:masters before RBAC and nobody else without a rule", async () => {
    const { authorizer, rbac: isRBAC } = newAuthorizer(["RBAC"], rbac);
    expect(isRBAC).toBe(true);
    expect((await authorizer.authorize(req(["system:masters"]))).decision).toBe("Allow");
    expect(await authorizer.authorize(req(["system:authenticated"]))).toEqual({ decision: "NoOpinion", reason: "" });
  });

  it("AlwaysAllow allows everyone and lists every rule; AlwaysDeny has no opinion", async () => {
    const allow = newAuthorizer(["AlwaysAllow"], rbac);
    expect(allow.rbac).toBe(false);
    expect((await allow.authorizer.authorize(req([]))).decision).toBe("Allow");
    expect((await allow.ruleResolver.rulesFor({ name: "u", uid: "", groups: [] }, "")).resourceRules).toEqual([
      { verbs: ["*"], apiGroups: ["*"], resources: ["*"], resourceNames: [] },
    ]);
    expect(await newAuthorizer(["AlwaysDeny"], rbac).authorizer.authorize(req([]))).toEqual({
      decision: "NoOpinion",
      reason: "Everything is forbidden.",
    });
  });
});
