// Cases after pkg/registry/rbac/reconciliation/reconcile_role_test.go (TestComputeReconciledRoleAggregationRules,
// TestComputeReconciledRole) and reconcile_rolebindings_test.go (TestDiffObjectReferenceLists, TestComputeUpdate).
import { describe, expect, it } from "vitest";
import type { ClusterRole, ClusterRoleBinding, PolicyRule } from "@servicenet/api";
import { computeReconciledRole } from "./reconcile-role.ts";
import { computeReconciledRoleBinding, diffSubjectLists } from "./reconcile-rolebindings.ts";

const rule = (verb: string, resource: string): PolicyRule => ({ verbs: [verb], apiGroups: [""], resources: [resource] });
const role = (rules: PolicyRule[] | null, extra: Partial<ClusterRole> = {}, annotations?: Record<string, string>): ClusterRole => ({
  metadata: { name: "r", ...(annotations ? { annotations } : {}) },
  rules,
  ...extra,
});
const sel = (k: string) => ({ matchLabels: { [k]: "true" } });

describe("TestComputeReconciledRole", () => {
  const cases: { name: string; expected: ClusterRole; actual: ClusterRole; removeExtra: boolean; want: ClusterRole | null }[] = [
    { name: "empty", expected: role([]), actual: role([]), removeExtra: false, want: null },
    {
      name: "match without union",
      expected: role([rule("get", "pods")]),
      actual: role([rule("get", "pods")]),
      removeExtra: true,
      want: null,
    },
    {
      name: "missing rules are added",
      expected: role([rule("get", "pods")]),
      actual: role([rule("list", "pods")]),
      removeExtra: false,
      want: role([rule("list", "pods"), rule("get", "pods")]),
    },
    {
      name: "extra rules are kept in the union case",
      expected: role([rule("get", "pods")]),
      actual: role([rule("get", "pods"), rule("list", "pods")]),
      removeExtra: false,
      want: null,
    },
    {
      name: "extra rules are removed without union",
      expected: role([rule("get", "pods")]),
      actual: role([rule("get", "pods"), rule("list", "pods")]),
      removeExtra: true,
      want: role([rule("get", "pods")]),
    },
    {
      name: "missing annotations are added, existing ones win",
      expected: role([], {}, { a: "1", "rbac.authorization.kubernetes.io/autoupdate": "true" }),
      actual: role([], {}, { a: "2" }),
      removeExtra: false,
      want: role([], {}, { a: "2", "rbac.authorization.kubernetes.io/autoupdate": "true" }),
    },
    {
      name: "missing aggregation selectors are added",
      expected: role(null, { aggregationRule: { clusterRoleSelectors: [sel("a")] } }),
      actual: role(null, { aggregationRule: { clusterRoleSelectors: [sel("b")] } }),
      removeExtra: false,
      want: role(null, { aggregationRule: { clusterRoleSelectors: [sel("b"), sel("a")] } }),
    },
    {
      name: "aggregated roles keep their aggregated rules",
      expected: role(null, { aggregationRule: { clusterRoleSelectors: [sel("a")] } }),
      actual: role([rule("get", "pods")], { aggregationRule: { clusterRoleSelectors: [sel("a")] } }),
      removeExtra: true,
      want: null,
    },
    {
      name: "an unexpected aggregation rule is removed",
      expected: role([rule("get", "pods")]),
      actual: role([rule("get", "pods")], { aggregationRule: { clusterRoleSelectors: [sel("a")] } }),
      removeExtra: false,
      want: role([rule("get", "pods")]),
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const r = computeReconciledRole(tc.actual, tc.expected, tc.removeExtra);
      expect(r.operation).toBe(tc.want === null ? "none" : "update");
      if (tc.want) expect(r.role).toEqual(tc.want);
    });
  }
  it('reports an auto-update "false" role as protected', () => {
    const r = computeReconciledRole(
      role([], {}, { "rbac.authorization.kubernetes.io/autoupdate": "false" }),
      role([rule("get", "pods")]),
      false,
    );
    expect(r.protected).toBe(true);
    expect(r.missingRules).toEqual([rule("get", "pods")]);
  });
});

const binding = (roleName: string, subjects: ClusterRoleBinding["subjects"]): ClusterRoleBinding => ({
  metadata: { name: "b" },
  roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: roleName },
  subjects,
});
const user = (name: string) => ({ kind: "User", apiGroup: "rbac.authorization.k8s.io", name });

describe("TestDiffObjectReferenceLists", () => {
  it("finds the subjects only in one list", () => {
    expect(diffSubjectLists([user("a"), user("b")], [user("b"), user("c")])).toEqual([[user("a")], [user("c")]]);
  });
});

describe("TestComputeUpdate (bindings)", () => {
  it("adds missing subjects and keeps extra ones in the union case", () => {
    const r = computeReconciledRoleBinding(binding("x", [user("extra")]), binding("x", [user("a")]), false);
    expect(r.operation).toBe("update");
    expect(r.roleBinding.subjects).toEqual([user("extra"), user("a")]);
  });
  it("recreates a binding whose roleRef differs", () => {
    expect(computeReconciledRoleBinding(binding("old", [user("a")]), binding("new", [user("a")]), false).operation).toBe("recreate");
  });
  it("changes nothing when the subjects match", () => {
    expect(computeReconciledRoleBinding(binding("x", [user("a")]), binding("x", [user("a")]), true).operation).toBe("none");
  });
});
