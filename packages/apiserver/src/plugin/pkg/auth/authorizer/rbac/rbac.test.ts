// Ported from plugin/pkg/auth/authorizer/rbac/rbac_test.go (TestAuthorizer, TestRuleMatches, TestRulesFor).
import { describe, expect, it } from "vitest";
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from "@servicenet/api";
import { attributes, type Attributes } from "../../../../../authorization/authorizer/interfaces.ts";
import { newTestRuleResolver } from "../../../../../registry/rbac/validation/rule.ts";
import { RBACAuthorizer, ruleAllows } from "./rbac.ts";

const split = (s: string): string[] => s.split(",");
function newRule(verbs: string, apiGroups: string, resources: string, nonResourceURLs: string): PolicyRule {
  return { verbs: split(verbs), apiGroups: split(apiGroups), resources: split(resources), nonResourceURLs: split(nonResourceURLs) };
}
const newClusterRole = (name: string, ...rules: PolicyRule[]): ClusterRole => ({ metadata: { name }, rules });
const newRole = (name: string, namespace: string, ...rules: PolicyRule[]): Role => ({ metadata: { name, namespace }, rules });
function subjects(list: string[]): Subject[] {
  return list.map((s) => {
    const [kind, ...rest] = s.split(":");
    const name = rest.join(":");
    return kind === "ServiceAccount" ? { kind, apiGroup: "", name } : { kind: kind!, apiGroup: "rbac.authorization.k8s.io", name };
  });
}
const newClusterRoleBinding = (roleName: string, ...subs: string[]): ClusterRoleBinding => ({
  metadata: {},
  roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: roleName },
  subjects: subjects(subs),
});
const bindToRole = 0;
const bindToClusterRole = 1;
const newRoleBinding = (namespace: string, roleName: string, bindType: number, ...subs: string[]): RoleBinding => ({
  metadata: { namespace },
  roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: bindType === bindToRole ? "Role" : "ClusterRole", name: roleName },
  subjects: subjects(subs),
});
/** defaultAttributes{user, groups, verb, resource, subresource, namespace, apiGroup}. */
const d = (
  user: string,
  groups: string,
  verb: string,
  resource: string,
  subresource: string,
  namespace: string,
  apiGroup: string,
): Attributes =>
  attributes({
    user: { name: user, uid: "", groups: groups.split(",") },
    verb,
    resource,
    subresource,
    namespace,
    apiGroup,
    resourceRequest: true,
  });
const nr = (user: { name?: string; groups?: string[] }, verb: string, path: string): Attributes =>
  attributes({ user: { name: user.name ?? "", uid: "", groups: user.groups ?? [] }, verb, path });

describe("TestAuthorizer", () => {
  const tests: {
    roles?: Role[];
    roleBindings?: RoleBinding[];
    clusterRoles?: ClusterRole[];
    clusterRoleBindings?: ClusterRoleBinding[];
    shouldPass: Attributes[];
    shouldFail: Attributes[];
  }[] = [
    {
      clusterRoles: [newClusterRole("admin", newRule("*", "*", "*", "*"))],
      roleBindings: [newRoleBinding("ns1", "admin", bindToClusterRole, "User:admin", "Group:admins")],
      shouldPass: [
        d("admin", "", "get", "Pods", "", "ns1", ""),
        d("admin", "", "watch", "Pods", "", "ns1", ""),
        d("admin", "group1", "watch", "Foobar", "", "ns1", ""),
        d("joe", "admins", "watch", "Foobar", "", "ns1", ""),
        d("joe", "group1,admins", "watch", "Foobar", "", "ns1", ""),
      ],
      shouldFail: [
        d("admin", "", "GET", "Pods", "", "ns2", ""),
        d("admin", "", "GET", "Nodes", "", "", ""),
        d("admin", "admins", "GET", "Pods", "", "ns2", ""),
        d("admin", "admins", "GET", "Nodes", "", "", ""),
      ],
    },
    {
      // Non-resource-url tests
      clusterRoles: [
        newClusterRole("non-resource-url-getter", newRule("get", "", "", "/apis")),
        newClusterRole("non-resource-url", newRule("*", "", "", "/apis")),
        newClusterRole("non-resource-url-prefix", newRule("get", "", "", "/apis/*")),
      ],
      clusterRoleBindings: [
        newClusterRoleBinding("non-resource-url-getter", "User:foo", "Group:bar"),
        newClusterRoleBinding("non-resource-url", "User:admin", "Group:admin"),
        newClusterRoleBinding("non-resource-url-prefix", "User:prefixed", "Group:prefixed"),
      ],
      shouldPass: [
        nr({ name: "foo" }, "get", "/apis"),
        nr({ groups: ["bar"] }, "get", "/apis"),
        nr({ name: "admin" }, "get", "/apis"),
        nr({ groups: ["admin"] }, "get", "/apis"),
        nr({ name: "admin" }, "watch", "/apis"),
        nr({ groups: ["admin"] }, "watch", "/apis"),
        nr({ name: "prefixed" }, "get", "/apis/v1"),
        nr({ groups: ["prefixed"] }, "get", "/apis/v1"),
        nr({ name: "prefixed" }, "get", "/apis/v1/foobar"),
        nr({ groups: ["prefixed"] }, "get", "/apis/v1/foorbar"),
      ],
      shouldFail: [
        nr({ name: "foo" }, "watch", "/apis"),
        nr({ groups: ["bar"] }, "watch", "/apis"),
        nr({ name: "foo" }, "get", "/api/v1"),
        nr({ groups: ["bar"] }, "get", "/api/v1"),
        nr({ name: "admin" }, "get", "/api/v1"),
        nr({ groups: ["admin"] }, "get", "/api/v1"),
        nr({ name: "prefixed" }, "get", "/api/v1"),
        nr({ groups: ["prefixed"] }, "get", "/api/v1"),
      ],
    },
    {
      // test subresource resolution
      clusterRoles: [newClusterRole("admin", newRule("*", "*", "pods", "*"))],
      roleBindings: [newRoleBinding("ns1", "admin", bindToClusterRole, "User:admin", "Group:admins")],
      shouldPass: [d("admin", "", "get", "pods", "", "ns1", "")],
      shouldFail: [d("admin", "", "get", "pods", "status", "ns1", "")],
    },
    {
      // test subresource resolution
      clusterRoles: [newClusterRole("admin", newRule("*", "*", "pods/status", "*"))],
      roleBindings: [newRoleBinding("ns1", "admin", bindToClusterRole, "User:admin", "Group:admins")],
      shouldPass: [d("admin", "", "get", "pods", "status", "ns1", "")],
      shouldFail: [d("admin", "", "get", "pods", "", "ns1", "")],
    },
    {
      // Role in the namespace and service accounts (local subject defaults to the binding's namespace)
      roles: [newRole("reader", "ns1", newRule("get", "", "services", ""))],
      roleBindings: [newRoleBinding("ns1", "reader", bindToRole, "ServiceAccount:robot")],
      shouldPass: [d("system:serviceaccount:ns1:robot", "", "get", "services", "", "ns1", "")],
      shouldFail: [
        d("system:serviceaccount:ns2:robot", "", "get", "services", "", "ns1", ""),
        d("system:serviceaccount:ns1:robot", "", "list", "services", "", "ns1", ""),
      ],
    },
  ];
  tests.forEach((tt, i) => {
    it(`case ${i}`, () => {
      const a = new RBACAuthorizer(
        newTestRuleResolver(tt.roles ?? [], tt.roleBindings ?? [], tt.clusterRoles ?? [], tt.clusterRoleBindings ?? []),
      );
      for (const attr of tt.shouldPass) expect(a.authorize(attr).decision, `incorrectly restricted ${JSON.stringify(attr)}`).toBe("Allow");
      for (const attr of tt.shouldFail) expect(a.authorize(attr).decision, `incorrectly passed ${JSON.stringify(attr)}`).toBe("NoOpinion");
    });
  });

  it("names the binding that allowed, and reports resolution errors when nothing does", () => {
    const rb = { ...newRoleBinding("ns1", "missing", bindToClusterRole, "User:alice"), metadata: { name: "rb", namespace: "ns1" } };
    const crb = { ...newClusterRoleBinding("view", "Group:viewers"), metadata: { name: "viewers" } };
    const a = new RBACAuthorizer(newTestRuleResolver([], [rb], [newClusterRole("view", newRule("get", "", "pods", ""))], [crb]));
    expect(a.authorize(d("bob", "viewers", "get", "pods", "", "ns1", ""))).toEqual({
      decision: "Allow",
      reason: 'RBAC: allowed by ClusterRoleBinding "viewers" of ClusterRole "view" to Group "viewers"',
    });
    expect(a.authorize(d("alice", "", "get", "pods", "", "ns1", ""))).toEqual({
      decision: "NoOpinion",
      reason: "RBAC: clusterrole not found",
    });
  });
});

describe("selectors (AuthorizeWithSelectors)", () => {
  // RBAC rules have no selectors: a selector neither narrows nor widens what a role grants.
  const a = new RBACAuthorizer(
    newTestRuleResolver(
      [],
      [],
      [newClusterRole("pod-lister", newRule("list", "", "pods", ""))],
      [newClusterRoleBinding("pod-lister", "User:alice")],
    ),
  );
  const selectors: Partial<Attributes> = {
    fieldSelectorRequirements: [{ field: "spec.nodeName", operator: "=", value: "n1" }],
    labelSelectorRequirements: [{ key: "app", operator: "=", values: ["x"] }],
  };
  it.each([
    { name: "a granted list stays granted", attrs: d("alice", "", "list", "pods", "", "ns1", ""), want: "Allow" },
    { name: "an ungranted watch stays ungranted", attrs: d("alice", "", "watch", "pods", "", "ns1", ""), want: "NoOpinion" },
    {
      name: "a parse error changes nothing",
      attrs: { ...d("alice", "", "list", "pods", "", "ns1", ""), fieldSelectorParsingErr: "invalid selector" },
      want: "Allow",
    },
  ])("$name", ({ attrs, want }) => {
    expect(a.authorize(attrs).decision).toBe(want);
    expect(a.authorize({ ...attrs, ...selectors }).decision).toBe(want);
  });
});

type Req = Partial<Attributes>;
const rr = (verb: string, group: string, resource: string, subresource = ""): Req => ({
  resourceRequest: true,
  verb,
  apiGroup: group,
  resource,
  subresource,
});
const nrr = (verb: string, path: string): Req => ({ resourceRequest: false, verb, path });

describe("TestRuleMatches", () => {
  const tests: { name: string; rule: PolicyRule; requestsToExpected: [Req, boolean][] }[] = [
    {
      name: "star verb, exact match other",
      rule: { verbs: ["*"], apiGroups: ["group1"], resources: ["resource1"] },
      requestsToExpected: [
        [rr("verb1", "group1", "resource1"), true],
        [rr("verb1", "group2", "resource1"), false],
        [rr("verb1", "group1", "resource2"), false],
        [rr("verb1", "group2", "resource2"), false],
        [rr("verb2", "group1", "resource1"), true],
        [rr("verb2", "group2", "resource1"), false],
        [rr("verb2", "group1", "resource2"), false],
        [rr("verb2", "group2", "resource2"), false],
      ],
    },
    {
      name: "star group, exact match other",
      rule: { verbs: ["verb1"], apiGroups: ["*"], resources: ["resource1"] },
      requestsToExpected: [
        [rr("verb1", "group1", "resource1"), true],
        [rr("verb1", "group2", "resource1"), true],
        [rr("verb1", "group1", "resource2"), false],
        [rr("verb1", "group2", "resource2"), false],
        [rr("verb2", "group1", "resource1"), false],
        [rr("verb2", "group2", "resource1"), false],
        [rr("verb2", "group1", "resource2"), false],
        [rr("verb2", "group2", "resource2"), false],
      ],
    },
    {
      name: "star resource, exact match other",
      rule: { verbs: ["verb1"], apiGroups: ["group1"], resources: ["*"] },
      requestsToExpected: [
        [rr("verb1", "group1", "resource1"), true],
        [rr("verb1", "group2", "resource1"), false],
        [rr("verb1", "group1", "resource2"), true],
        [rr("verb1", "group2", "resource2"), false],
        [rr("verb2", "group1", "resource1"), false],
        [rr("verb2", "group2", "resource1"), false],
        [rr("verb2", "group1", "resource2"), false],
        [rr("verb2", "group2", "resource2"), false],
      ],
    },
    {
      name: "tuple expansion",
      rule: { verbs: ["verb1", "verb2"], apiGroups: ["group1", "group2"], resources: ["resource1", "resource2"] },
      requestsToExpected: [
        [rr("verb1", "group1", "resource1"), true],
        [rr("verb1", "group2", "resource1"), true],
        [rr("verb1", "group1", "resource2"), true],
        [rr("verb1", "group2", "resource2"), true],
        [rr("verb2", "group1", "resource1"), true],
        [rr("verb2", "group2", "resource1"), true],
        [rr("verb2", "group1", "resource2"), true],
        [rr("verb2", "group2", "resource2"), true],
      ],
    },
    {
      name: "subresource expansion",
      rule: { verbs: ["*"], apiGroups: ["*"], resources: ["resource1/subresource1"] },
      requestsToExpected: [
        [rr("verb1", "group1", "resource1", "subresource1"), true],
        [rr("verb1", "group2", "resource1", "subresource2"), false],
        [rr("verb1", "group1", "resource2", "subresource1"), false],
        [rr("verb1", "group2", "resource2", "subresource1"), false],
        [rr("verb2", "group1", "resource1", "subresource1"), true],
        [rr("verb2", "group2", "resource1", "subresource2"), false],
        [rr("verb2", "group1", "resource2", "subresource1"), false],
        [rr("verb2", "group2", "resource2", "subresource1"), false],
      ],
    },
    {
      name: "star subresource",
      rule: { verbs: ["*"], apiGroups: ["*"], resources: ["*/subresource1"] },
      requestsToExpected: [
        [rr("verb1", "group1", "resource1", "subresource1"), true],
        [rr("verb1", "group1", "resource2", "subresource1"), true],
        [rr("verb1", "group1", "resource1", "subresource2"), false],
        [rr("verb1", "group1", "resource1", "xsubresource1"), false],
        [rr("verb1", "group1", "resource1"), false],
      ],
    },
    {
      name: "resource names",
      rule: { verbs: ["get"], apiGroups: [""], resources: ["services"], resourceNames: ["web"] },
      requestsToExpected: [
        [{ ...rr("get", "", "services"), name: "web" }, true],
        [{ ...rr("get", "", "services"), name: "db" }, false],
        [rr("get", "", "services"), false],
      ],
    },
    {
      name: "star nonresource, exact match other",
      rule: { verbs: ["verb1"], nonResourceURLs: ["*"] },
      requestsToExpected: [
        [nrr("verb1", "/foo"), true],
        [nrr("verb1", "/foo/bar"), true],
        [nrr("verb1", "/foo/baz"), true],
        [nrr("verb1", "/foo/bar/one"), true],
        [nrr("verb1", "/foo/baz/one"), true],
        [nrr("verb2", "/foo"), false],
        [nrr("verb2", "/foo/bar"), false],
        [nrr("verb2", "/foo/baz"), false],
        [nrr("verb2", "/foo/bar/one"), false],
        [nrr("verb2", "/foo/baz/one"), false],
      ],
    },
    {
      name: "star nonresource subpath",
      rule: { verbs: ["verb1"], nonResourceURLs: ["/foo/*"] },
      requestsToExpected: [
        [nrr("verb1", "/foo"), false],
        [nrr("verb1", "/foo/bar"), true],
        [nrr("verb1", "/foo/baz"), true],
        [nrr("verb1", "/foo/bar/one"), true],
        [nrr("verb1", "/foo/baz/one"), true],
        [nrr("verb1", "/notfoo"), false],
        [nrr("verb1", "/notfoo/bar"), false],
        [nrr("verb1", "/notfoo/baz"), false],
        [nrr("verb1", "/notfoo/bar/one"), false],
        [nrr("verb1", "/notfoo/baz/one"), false],
      ],
    },
    {
      name: "star verb, exact nonresource",
      rule: { verbs: ["*"], nonResourceURLs: ["/foo", "/foo/bar/one"] },
      requestsToExpected: [
        [nrr("verb1", "/foo"), true],
        [nrr("verb1", "/foo/bar"), false],
        [nrr("verb1", "/foo/baz"), false],
        [nrr("verb1", "/foo/bar/one"), true],
        [nrr("verb1", "/foo/baz/one"), false],
        [nrr("verb2", "/foo"), true],
        [nrr("verb2", "/foo/bar"), false],
        [nrr("verb2", "/foo/baz"), false],
        [nrr("verb2", "/foo/bar/one"), true],
        [nrr("verb2", "/foo/baz/one"), false],
      ],
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      for (const [req, expected] of tc.requestsToExpected) {
        expect(ruleAllows(attributes({ verb: "", ...req }), tc.rule), JSON.stringify(req)).toBe(expected);
      }
    });
  }
});

describe("TestRulesFor", () => {
  it("splits a user's rules into resource and non-resource rules, cluster-wide and in the namespace", async () => {
    const a = new RBACAuthorizer(
      newTestRuleResolver(
        [newRole("r", "ns1", { verbs: ["get"], apiGroups: [""], resources: ["services"] })],
        [newRoleBinding("ns1", "r", bindToRole, "User:alice")],
        [
          newClusterRole(
            "basic",
            { verbs: ["get"], nonResourceURLs: ["/healthz"] },
            { verbs: ["create"], apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectaccessreviews"] },
          ),
        ],
        [newClusterRoleBinding("basic", "Group:system:authenticated")],
      ),
    );
    const user = { name: "alice", uid: "", groups: ["system:authenticated"] };
    expect(await a.rulesFor(user, "ns1")).toEqual({
      resourceRules: [
        { verbs: ["create"], apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectaccessreviews"], resourceNames: [] },
        { verbs: ["get"], apiGroups: [""], resources: ["services"], resourceNames: [] },
      ],
      nonResourceRules: [{ verbs: ["get"], nonResourceURLs: ["/healthz"] }],
      incomplete: false,
    });
    expect((await a.rulesFor(user, "")).resourceRules).toHaveLength(1);
  });
});
