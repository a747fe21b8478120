import { describe, expect, it } from "vitest";
import { attributes } from "../../authorization/authorizer/interfaces.ts";
import { newTestRuleResolver } from "../../registry/rbac/validation/rule.ts";
import type { WebhookAuthorizer } from "../../plugin/pkg/authorizer/webhook/webhook.ts";
import { validateBuiltInAuthorizationOptions } from "../options/authorization.ts";
import { newAuthorizer, parseAuthorizationModes } from "./config.ts";

describe("parseAuthorizationModes", () => {
  it("accepts upstream's comma list and rejects unknown or repeated modes", () => {
    expect(parseAuthorizationModes("RBAC")).toEqual(["RBAC"]);
    expect(parseAuthorizationModes("AlwaysAllow,RBAC")).toEqual(["AlwaysAllow", "RBAC"]);
    expect(parseAuthorizationModes("RBAC,Webhook")).toEqual(["RBAC", "Webhook"]);
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

describe("BuiltInAuthorizationOptions.Validate", () => {
  it.each([
    {
      name: "Webhook without a config file",
      modes: ["Webhook"],
      file: "",
      want: ["authorization-mode Webhook's authorization config file not passed"],
    },
    {
      name: "a config file without Webhook",
      modes: ["RBAC"],
      file: "/k",
      want: ["cannot specify --authorization-webhook-config-file without mode Webhook"],
    },
    {
      name: "every error at once",
      modes: ["Foo", "Webhook", "Webhook"],
      file: "",
      want: [
        'authorization-mode "Foo" is not a valid mode',
        "authorization-mode Webhook's authorization config file not passed",
        "authorization-mode Webhook's authorization config file not passed",
        'authorization-mode ["Foo" "Webhook" "Webhook"] has mode specified more than once',
      ],
    },
    { name: "no modes", modes: [], file: "", want: ["at least one authorization-mode must be passed"] },
    { name: "RBAC,Webhook with its file", modes: ["RBAC", "Webhook"], file: "/k", want: [] },
  ])("$name", ({ modes, file, want }) => {
    expect(validateBuiltInAuthorizationOptions(modes, file === "" ? undefined : { configFile: file })).toEqual(want);
  });
});

describe("the union's order", () => {
  it("asks system:masters, then each mode in the order given: RBAC before Webhook, or Webhook first", async () => {
    const asked: string[] = [];
    const webhook = {
      authorize: () => (asked.push("webhook"), { decision: "Deny" as const, reason: "webhook says no" }),
      rulesFor: () => Promise.resolve({ resourceRules: [], nonResourceRules: [], incomplete: true }),
    } as unknown as WebhookAuthorizer;
    const rbac = () => newTestRuleResolver([], [], [], []);
    const req = attributes({ user: { name: "u", uid: "", groups: [] }, verb: "get", resource: "pods", resourceRequest: true });
    expect(await newAuthorizer(["RBAC", "Webhook"], rbac, () => webhook).authorizer.authorize(req)).toEqual({
      decision: "Deny",
      reason: "webhook says no",
    });
    const masters = attributes({ ...req, user: { name: "admin", uid: "", groups: ["system:masters"] } });
    expect((await newAuthorizer(["Webhook", "RBAC"], rbac, () => webhook).authorizer.authorize(masters)).decision).toBe("Allow");
    expect(asked).toEqual(["webhook"]);
    expect(() => newAuthorizer(["Webhook"], rbac)).toThrow("authorization-mode Webhook's authorization config file not passed");
  });
});
