// Ported from pkg/registry/rbac/validation/rule_test.go (TestDefaultRuleResolver, TestAppliesTo).
import { describe, expect, it } from "vitest";
import type { PolicyRule, Subject } from "@servicenet/api";
import type { UserInfo } from "../../../authentication/user/user.ts";
import { appliesTo, DefaultRuleResolver, StaticRoles } from "./rule.ts";

const u = (name: string, groups: string[] = []): UserInfo => ({ name, uid: "", groups });
const sortRules = (rs: PolicyRule[]): string[] => rs.map((r) => JSON.stringify(r)).sort();

describe("TestDefaultRuleResolver", () => {
  const ruleReadPods: PolicyRule = { verbs: ["GET", "WATCH"], apiGroups: ["v1"], resources: ["pods"] };
  const ruleReadServices: PolicyRule = { verbs: ["GET", "WATCH"], apiGroups: ["v1"], resources: ["services"] };
  const ruleWriteNodes: PolicyRule = { verbs: ["PUT", "CREATE", "UPDATE"], apiGroups: ["v1"], resources: ["nodes"] };
  const ruleAdmin: PolicyRule = { verbs: ["*"], apiGroups: ["*"], resources: ["*"] };
  const staticRoles1 = new StaticRoles(
    [{ metadata: { namespace: "namespace1", name: "readthings" }, rules: [ruleReadPods, ruleReadServices] }],
    [
      {
        metadata: { namespace: "namespace1" },
        subjects: [
          { kind: "User", name: "foobar" },
          { kind: "Group", name: "group1" },
        ],
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "readthings" },
      },
    ],
    [
      { metadata: { name: "cluster-admin" }, rules: [ruleAdmin] },
      { metadata: { name: "write-nodes" }, rules: [ruleWriteNodes] },
    ],
    [
      {
        metadata: {},
        subjects: [
          { kind: "User", name: "admin" },
          { kind: "Group", name: "admin" },
        ],
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
      },
    ],
  );
  const tests: { user: UserInfo; namespace: string; effectiveRules: PolicyRule[] }[] = [
    { user: u("foobar"), namespace: "namespace1", effectiveRules: [ruleReadPods, ruleReadServices] },
    { user: u("foobar"), namespace: "namespace2", effectiveRules: [] },
    // Same as above but without a namespace. Only cluster rules should apply.
    { user: u("foobar", ["admin"]), namespace: "", effectiveRules: [ruleAdmin] },
    { user: u(""), namespace: "", effectiveRules: [] },
  ];
  tests.forEach((tc, i) => {
    it(`case ${i}`, async () => {
      const r = new DefaultRuleResolver(staticRoles1, staticRoles1, staticRoles1, staticRoles1);
      const { rules, errors } = await r.rulesFor(tc.user, tc.namespace);
      expect(errors).toEqual([]);
      expect(sortRules(rules)).toEqual(sortRules(tc.effectiveRules));
    });
  });

  it("collects GetRoleReferenceRules errors and keeps the rules it could resolve", async () => {
    const s = new StaticRoles(
      [],
      [
        {
          metadata: { namespace: "ns" },
          subjects: [{ kind: "User", name: "a" }],
          roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "gone" },
        },
      ],
      [{ metadata: { name: "view" }, rules: [ruleReadPods] }],
      [
        {
          metadata: {},
          subjects: [{ kind: "User", name: "a" }],
          roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
        },
        {
          metadata: {},
          subjects: [{ kind: "User", name: "a" }],
          roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Widget", name: "w" },
        },
      ],
    );
    const r = new DefaultRuleResolver(s, s, s, s);
    expect(await r.rulesFor(u("a"), "ns")).toEqual({
      rules: [ruleReadPods],
      errors: ['unsupported role reference kind: "Widget"', "role not found"],
    });
    await expect(r.getRoleReferenceRules({ apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "nope" }, "")).rejects.toThrow(
      "clusterrole not found",
    );
  });
});

describe("TestAppliesTo", () => {
  const tests: { subjects: Subject[]; user: UserInfo; namespace?: string; appliesTo: boolean; testCase: string }[] = [
    { subjects: [{ kind: "User", name: "foobar" }], user: u("foobar"), appliesTo: true, testCase: "single subject that matches username" },
    {
      subjects: [
        { kind: "User", name: "barfoo" },
        { kind: "User", name: "foobar" },
      ],
      user: u("foobar"),
      appliesTo: true,
      testCase: "multiple subjects, one that matches username",
    },
    {
      subjects: [
        { kind: "User", name: "barfoo" },
        { kind: "User", name: "foobar" },
      ],
      user: u("zimzam"),
      appliesTo: false,
      testCase: "multiple subjects, none that match username",
    },
    {
      subjects: [
        { kind: "User", name: "barfoo" },
        { kind: "Group", name: "foobar" },
      ],
      user: u("zimzam", ["foobar"]),
      appliesTo: true,
      testCase: "multiple subjects, one that match group",
    },
    {
      subjects: [
        { kind: "User", name: "barfoo" },
        { kind: "Group", name: "foobar" },
      ],
      user: u("zimzam", ["foobar"]),
      namespace: "namespace1",
      appliesTo: true,
      testCase: "multiple subjects, one that match group, should ignore namespace",
    },
    {
      subjects: [
        { kind: "User", name: "barfoo" },
        { kind: "Group", name: "foobar" },
        { kind: "ServiceAccount", namespace: "kube-system", name: "default" },
      ],
      user: u("system:serviceaccount:kube-system:default"),
      namespace: "default",
      appliesTo: true,
      testCase: "multiple subjects with a service account that matches",
    },
    {
      subjects: [{ kind: "User", name: "*" }],
      user: u("foobar"),
      namespace: "default",
      appliesTo: false,
      testCase: "* user subject name doesn't match all users",
    },
    {
      subjects: [
        { kind: "Group", name: "system:authenticated" },
        { kind: "Group", name: "system:unauthenticated" },
      ],
      user: u("foobar", ["system:authenticated"]),
      namespace: "default",
      appliesTo: true,
      testCase: "binding to all authenticated and unauthenticated subjects matches authenticated user",
    },
    {
      subjects: [
        { kind: "Group", name: "system:authenticated" },
        { kind: "Group", name: "system:unauthenticated" },
      ],
      user: u("system:anonymous", ["system:unauthenticated"]),
      namespace: "default",
      appliesTo: true,
      testCase: "binding to all authenticated and unauthenticated subjects matches anonymous user",
    },
    {
      subjects: [{ kind: "ServiceAccount", name: "robot" }],
      user: u("system:serviceaccount:ns1:robot"),
      namespace: "",
      appliesTo: false,
      testCase: "service account without a namespace in a cluster-wide binding matches nobody",
    },
  ];
  for (const tc of tests) {
    it(tc.testCase, () => {
      expect(appliesTo(tc.user, tc.subjects, tc.namespace ?? "") >= 0).toBe(tc.appliesTo);
    });
  }
});
