/** staging/src/k8s.io/apiserver/pkg/audit/policy/checker_test.go, its tables as they are. */
import { describe, expect, it } from "vitest";
import type { AuditLevel, AuditStage, PolicyRule } from "../../apis/audit/v1/types.ts";
import { attributes, type Attributes } from "../../authorization/authorizer/interfaces.ts";
import { newPolicyRuleEvaluator, unionStages } from "./checker.ts";

const tim = { name: "tim@k8s.io", uid: "", groups: ["humans", "developers"] };
const base: Attributes = attributes({ user: tim, verb: "get" });
const attrs: Record<string, Attributes> = {
  namespaced: {
    ...base,
    namespace: "default",
    apiVersion: "v1",
    resource: "pods",
    name: "busybox",
    resourceRequest: true,
    path: "/api/v1/namespaces/default/pods/busybox",
  },
  cluster: {
    ...base,
    apiGroup: "rbac.authorization.k8s.io",
    apiVersion: "v1beta1",
    resource: "clusterroles",
    name: "edit",
    resourceRequest: true,
    path: "/apis/rbac.authorization.k8s.io/v1beta1/clusterroles/edit",
  },
  nonResource: { ...base, path: "/logs/kubelet.log" },
  subresource: {
    ...base,
    namespace: "default",
    apiVersion: "v1",
    resource: "pods",
    subresource: "log",
    name: "busybox",
    resourceRequest: true,
    path: "/api/v1/namespaces/default/pods/busybox",
  },
  Unauthorized: {
    ...base,
    user: undefined,
    namespace: "default",
    apiVersion: "v1",
    resource: "pods",
    name: "busybox",
    resourceRequest: true,
    path: "/api/v1/namespaces/default/pods/busybox",
  },
};

const rules: Record<string, PolicyRule> = {
  default: { level: "Metadata" },
  create: { level: "Request", verbs: ["create"] },
  tims: { level: "Metadata", users: ["tim@k8s.io"] },
  humans: { level: "Metadata", userGroups: ["humans"] },
  serviceAccounts: { level: "Request", userGroups: ["system:serviceaccounts"] },
  getPods: { level: "RequestResponse", verbs: ["get"], resources: [{ resources: ["pods"] }] },
  getPodLogs: { level: "Request", verbs: ["get"], resources: [{ resources: ["pods/log"] }] },
  getPodWildcardMatching: { level: "Request", verbs: ["get"], resources: [{ resources: ["*"] }] },
  getPodResourceWildcardMatching: { level: "Request", verbs: ["get"], resources: [{ resources: ["*/log"] }] },
  getPodSubResourceWildcardMatching: { level: "Request", verbs: ["get"], resources: [{ resources: ["pods/*"] }] },
  getClusterRoles: {
    level: "RequestResponse",
    verbs: ["get"],
    resources: [{ group: "rbac.authorization.k8s.io", resources: ["clusterroles"] }],
    namespaces: [""],
  },
  getLogs: { level: "RequestResponse", verbs: ["get"], nonResourceURLs: ["/logs*"] },
  getMetrics: { level: "Request", verbs: ["get"], nonResourceURLs: ["/metrics"] },
  clusterRoleEdit: {
    level: "Request",
    resources: [{ group: "rbac.authorization.k8s.io", resources: ["clusterroles"], resourceNames: ["edit"] }],
  },
  "omit RequestReceived": { level: "Request", omitStages: ["RequestReceived"] },
  "only audit panic": { level: "Request", omitStages: ["RequestReceived", "ResponseStarted", "ResponseComplete"] },
};

type Case = [req: string, level: AuditLevel, ruleNames: string[]];

/** testAuditLevel's calls: the omitted stages always equal the policy's. */
const levelCases: Case[] = [
  ["namespaced", "Metadata", ["default"]],
  ["namespaced", "None", ["create"]],
  ["namespaced", "Metadata", ["tims"]],
  ["namespaced", "Metadata", ["humans"]],
  ["namespaced", "None", ["serviceAccounts"]],
  ["namespaced", "RequestResponse", ["getPods"]],
  ["namespaced", "None", ["getClusterRoles"]],
  ["namespaced", "None", ["getLogs"]],
  ["namespaced", "None", ["getMetrics"]],
  ["namespaced", "Metadata", ["getMetrics", "serviceAccounts", "default"]],
  ["namespaced", "RequestResponse", ["getMetrics", "getPods", "default"]],
  ["namespaced", "RequestResponse", ["getPodLogs", "getPods"]],
  ["cluster", "Metadata", ["default"]],
  ["cluster", "None", ["create"]],
  ["cluster", "Metadata", ["tims"]],
  ["cluster", "Metadata", ["humans"]],
  ["cluster", "None", ["serviceAccounts"]],
  ["cluster", "None", ["getPods"]],
  ["cluster", "RequestResponse", ["getClusterRoles"]],
  ["cluster", "Request", ["clusterRoleEdit", "getClusterRoles"]],
  ["cluster", "None", ["getLogs"]],
  ["cluster", "None", ["getMetrics"]],
  ["cluster", "Metadata", ["getMetrics", "serviceAccounts", "default"]],
  ["cluster", "RequestResponse", ["getMetrics", "getClusterRoles", "default"]],
  ["cluster", "None", ["getPodLogs", "getPods"]],
  ["nonResource", "Metadata", ["default"]],
  ["nonResource", "None", ["create"]],
  ["nonResource", "Metadata", ["tims"]],
  ["nonResource", "Metadata", ["humans"]],
  ["nonResource", "None", ["serviceAccounts"]],
  ["nonResource", "None", ["getPods"]],
  ["nonResource", "None", ["getClusterRoles"]],
  ["nonResource", "RequestResponse", ["getLogs"]],
  ["nonResource", "None", ["getMetrics"]],
  ["nonResource", "Metadata", ["getMetrics", "serviceAccounts", "default"]],
  ["nonResource", "RequestResponse", ["getLogs", "getClusterRoles", "default"]],
  ["nonResource", "None", ["getPodLogs", "getPods"]],
  ["subresource", "Request", ["getPodLogs", "getPods"]],
  ["subresource", "Request", ["getPodWildcardMatching"]],
  ["subresource", "Request", ["getPodResourceWildcardMatching"]],
  ["subresource", "Request", ["getPodSubResourceWildcardMatching"]],
  ["Unauthorized", "None", ["tims"]],
  ["Unauthorized", "Metadata", ["tims", "default"]],
  ["Unauthorized", "None", ["humans"]],
  ["Unauthorized", "Metadata", ["humans", "default"]],
];

function evaluate(req: string, policyStages: AuditStage[] | undefined, ruleNames: string[]) {
  const policy = { omitStages: policyStages, rules: ruleNames.map((n) => rules[n]!) };
  return newPolicyRuleEvaluator(policy).evaluatePolicyRule(attrs[req]!);
}
const sorted = (s: readonly string[]) => [...s].sort();

describe.each([
  ["TestChecker", undefined],
  ["TestCheckerPolicyOmitStages", ["RequestReceived", "ResponseStarted"] as AuditStage[]],
])("%s", (_, policyStages) => {
  it.each(levelCases)("%s is %s with rules %j", (req, level, ruleNames) => {
    const got = evaluate(req, policyStages, ruleNames);
    expect(got.level).toBe(level);
    expect(sorted(got.omitStages)).toEqual(sorted(policyStages ?? []));
  });

  const all: AuditStage[] = ["RequestReceived", "ResponseStarted", "ResponseComplete"];
  it.each<[string, AuditLevel, AuditStage[], string[]]>([
    ["namespaced", "Request", ["RequestReceived"], ["omit RequestReceived", "getPods", "default"]],
    ["namespaced", "Request", all, ["only audit panic", "getPods", "default"]],
    ["cluster", "Request", ["RequestReceived"], ["omit RequestReceived", "getPods", "default"]],
    ["cluster", "Request", all, ["only audit panic", "getPods", "default"]],
    ["nonResource", "Request", ["RequestReceived"], ["omit RequestReceived", "getPods", "default"]],
    ["nonResource", "Request", all, ["only audit panic", "getPods", "default"]],
  ])("omitted stages: %s is %s omitting %j (plus the policy's) with rules %j", (req, level, stages, ruleNames) => {
    const got = evaluate(req, policyStages, ruleNames);
    expect(got.level).toBe(level);
    expect(sorted(got.omitStages)).toEqual(sorted(unionStages(stages, policyStages)));
  });

  it("a rule listed after default never decides", () => {
    // TestCheckerPolicyOmitStages: "default" first answers Metadata for a non-resource request.
    expect(evaluate("nonResource", policyStages, ["default", "omit RequestReceived", "getPods"]).level).toBe("Metadata");
  });
});

describe("TestUnionStages", () => {
  it.each<[AuditStage[] | undefined, AuditStage[], AuditStage[]]>([
    [[], [], []],
    [["RequestReceived"], [], ["RequestReceived"]],
    [["RequestReceived"], ["RequestReceived"], ["RequestReceived"]],
    [["RequestReceived"], ["ResponseStarted"], ["RequestReceived", "ResponseStarted"]],
    [["RequestReceived", "RequestReceived"], ["RequestReceived", "RequestReceived"], ["RequestReceived"]],
    [
      ["RequestReceived", "ResponseStarted"],
      ["Panic", "RequestReceived"],
      ["RequestReceived", "ResponseStarted", "Panic"],
    ],
    [undefined, ["RequestReceived"], ["RequestReceived"]],
  ])("%j ∪ %j = %j", (a, b, want) => {
    expect(sorted(unionStages(a, b))).toEqual(sorted(want));
  });
});

describe("TestOmitManagedFields", () => {
  const attributes: Attributes = { ...base, user: undefined };
  const matching: PolicyRule = { level: "RequestResponse", verbs: ["get"] };
  it.each<[string, boolean, boolean | undefined, boolean]>([
    ["global policy default is false, rule does not override", false, undefined, false],
    ["global policy default is true, rule does not override", true, undefined, true],
    ["global policy default is true, rule overrides to false", true, false, false],
    ["global policy default is false, rule overrides to true", false, true, true],
  ])("%s", (_, global, rule, want) => {
    const policy = { omitManagedFields: global, rules: [{ ...matching, ...(rule !== undefined ? { omitManagedFields: rule } : {}) }] };
    expect(newPolicyRuleEvaluator(policy).evaluatePolicyRule(attributes).omitManagedFields).toBe(want);
  });
});
