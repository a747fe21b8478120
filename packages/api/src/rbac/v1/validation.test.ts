/** Ported from pkg/apis/rbac/validation/validation_test.go (names kept), plus the exact messages. */
import { describe, expect, it } from "vitest";
import { aggregateMessage, type FieldError, type FieldErrorType } from "../../errors/index.ts";
import type { PolicyRule, Subject } from "./types.ts";
import {
  validateClusterRole,
  validateClusterRoleBinding,
  validateClusterRoleBindingUpdate,
  validateClusterRoleUpdate,
  validateRole,
  validateRoleBinding,
  validateRoleBindingUpdate,
  validateRoleUpdate,
  type RoleBindingShape,
  type RoleShape,
} from "./validation.ts";

const g = "rbac.authorization.k8s.io";

/** Every error has the expected type and field (the upstream tables' check). */
function expectAll(errs: FieldError[], t: FieldErrorType, f: string): void {
  expect(errs.length).toBeGreaterThan(0);
  for (const e of errs) expect({ type: e.type, field: e.field }).toEqual({ type: t, field: f });
}

describe("TestValidateClusterRoleBinding", () => {
  it("accepts a valid binding", () => {
    expect(
      validateClusterRoleBinding({
        metadata: { name: "master" },
        roleRef: { apiGroup: g, kind: "ClusterRole", name: "valid" },
        subjects: [
          { name: "validsaname", apiGroup: "", namespace: "foo", kind: "ServiceAccount" },
          { name: "valid@username", apiGroup: g, kind: "User" },
          { name: "valid@groupname", apiGroup: g, kind: "Group" },
        ],
      }),
    ).toEqual([]);
  });
  const cases: [string, RoleBindingShape, FieldErrorType, string][] = [
    [
      "bad group",
      { metadata: { name: "default" }, roleRef: { apiGroup: "rbac.GroupName", kind: "ClusterRole", name: "valid" } },
      "NotSupported",
      "roleRef.apiGroup",
    ],
    ["bad kind", { metadata: { name: "default" }, roleRef: { apiGroup: g, kind: "Type", name: "valid" } }, "NotSupported", "roleRef.kind"],
    [
      "reference role",
      { metadata: { name: "default" }, roleRef: { apiGroup: g, kind: "Role", name: "valid" } },
      "NotSupported",
      "roleRef.kind",
    ],
    ["zero-length name", { metadata: {}, roleRef: { apiGroup: g, kind: "ClusterRole", name: "valid" } }, "Required", "metadata.name"],
    ["bad role", { metadata: { name: "default" }, roleRef: { apiGroup: g, kind: "ClusterRole" } }, "Required", "roleRef.name"],
    [
      "bad subject kind",
      {
        metadata: { name: "master" },
        roleRef: { apiGroup: g, kind: "ClusterRole", name: "valid" },
        subjects: [{ name: "subject" } as Subject],
      },
      "NotSupported",
      "subjects[0].kind",
    ],
    [
      "bad subject name",
      {
        metadata: { name: "master" },
        roleRef: { apiGroup: g, kind: "ClusterRole", name: "valid" },
        subjects: [{ namespace: "foo", name: "subject:bad", kind: "ServiceAccount" }],
      },
      "Invalid",
      "subjects[0].name",
    ],
    [
      "missing SA namespace",
      {
        metadata: { name: "master" },
        roleRef: { apiGroup: g, kind: "ClusterRole", name: "valid" },
        subjects: [{ name: "good", kind: "ServiceAccount" }],
      },
      "Required",
      "subjects[0].namespace",
    ],
    [
      "missing subject name",
      {
        metadata: { name: "master" },
        roleRef: { apiGroup: g, kind: "ClusterRole", name: "valid" },
        subjects: [{ namespace: "foo", kind: "ServiceAccount" } as Subject],
      },
      "Required",
      "subjects[0].name",
    ],
  ];
  it.each(cases)("%s", (_name, b, t, f) => expectAll(validateClusterRoleBinding(b), t, f));
});

describe("TestValidateRoleBinding", () => {
  it("accepts a valid binding", () => {
    expect(
      validateRoleBinding({
        metadata: { namespace: "default", name: "master" },
        roleRef: { apiGroup: g, kind: "Role", name: "valid" },
        subjects: [
          { name: "validsaname", apiGroup: "", kind: "ServiceAccount" },
          { name: "valid@username", apiGroup: g, kind: "User" },
          { name: "valid@groupname", apiGroup: g, kind: "Group" },
        ],
      }),
    ).toEqual([]);
  });
  const ns = { namespace: "default" };
  const cases: [string, RoleBindingShape, FieldErrorType, string][] = [
    [
      "bad group",
      { metadata: { ...ns, name: "default" }, roleRef: { apiGroup: "rbac.GroupName", kind: "ClusterRole", name: "valid" } },
      "NotSupported",
      "roleRef.apiGroup",
    ],
    [
      "bad kind",
      { metadata: { ...ns, name: "default" }, roleRef: { apiGroup: g, kind: "Type", name: "valid" } },
      "NotSupported",
      "roleRef.kind",
    ],
    [
      "zero-length namespace",
      { metadata: { name: "default" }, roleRef: { apiGroup: g, kind: "Role", name: "valid" } },
      "Required",
      "metadata.namespace",
    ],
    ["zero-length name", { metadata: { ...ns }, roleRef: { apiGroup: g, kind: "Role", name: "valid" } }, "Required", "metadata.name"],
    ["bad role", { metadata: { ...ns, name: "default" }, roleRef: { apiGroup: g, kind: "Role" } }, "Required", "roleRef.name"],
    [
      "bad subject kind",
      {
        metadata: { ...ns, name: "master" },
        roleRef: { apiGroup: g, kind: "Role", name: "valid" },
        subjects: [{ name: "subject" } as Subject],
      },
      "NotSupported",
      "subjects[0].kind",
    ],
    [
      "bad subject name",
      {
        metadata: { ...ns, name: "master" },
        roleRef: { apiGroup: g, kind: "Role", name: "valid" },
        subjects: [{ name: "subject:bad", kind: "ServiceAccount" }],
      },
      "Invalid",
      "subjects[0].name",
    ],
    [
      "missing subject name",
      {
        metadata: { ...ns, name: "master" },
        roleRef: { apiGroup: g, kind: "Role", name: "valid" },
        subjects: [{ kind: "ServiceAccount" } as Subject],
      },
      "Required",
      "subjects[0].name",
    ],
  ];
  it.each(cases)("%s", (_name, b, t, f) => expectAll(validateRoleBinding(b), t, f));
});

describe("TestValidateRoleBindingUpdate", () => {
  const old: RoleBindingShape = {
    metadata: { namespace: "default", name: "master", resourceVersion: "1" },
    roleRef: { apiGroup: g, kind: "Role", name: "valid" },
  };
  it("accepts an unchanged roleRef", () => {
    expect(validateRoleBindingUpdate({ ...old, metadata: { ...old.metadata } }, old)).toEqual([]);
  });
  it("changedRef", () => {
    const errs = validateRoleBindingUpdate({ ...old, roleRef: { apiGroup: g, kind: "Role", name: "changed" } }, old);
    expectAll(errs, "Invalid", "roleRef");
    expect(aggregateMessage(errs)).toBe(
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"changed"}: cannot change roleRef',
    );
  });
  it("applies to ClusterRoleBindings too", () => {
    const o: RoleBindingShape = {
      metadata: { name: "b", resourceVersion: "1" },
      roleRef: { apiGroup: g, kind: "ClusterRole", name: "view" },
    };
    expect(validateClusterRoleBindingUpdate(o, o)).toEqual([]);
    expectAll(
      validateClusterRoleBindingUpdate({ ...o, roleRef: { apiGroup: g, kind: "ClusterRole", name: "edit" } }, o),
      "Invalid",
      "roleRef",
    );
  });
});

const role = (rules: PolicyRule[], metadata: RoleShape["metadata"] = { namespace: "default", name: "default" }): RoleShape => ({
  metadata,
  rules,
});
const clusterRole = (rules: PolicyRule[]): RoleShape => ({ metadata: { name: "default" }, rules });

describe("ValidateRole / ValidateClusterRole", () => {
  it("TestValidateRoleZeroLengthNamespace", () => expectAll(validateRole(role([], { name: "default" })), "Required", "metadata.namespace"));
  it("TestValidateRoleZeroLengthName", () => expectAll(validateRole(role([], { namespace: "default" })), "Required", "metadata.name"));
  it("TestValidateRoleValidRole", () => expect(validateRole(role([]))).toEqual([]));
  it("TestValidateRoleValidRoleNoNamespace", () => expect(validateClusterRole(clusterRole([]))).toEqual([]));
  it("TestValidateRoleNonResourceURL", () =>
    expect(validateClusterRole(clusterRole([{ verbs: ["get"], nonResourceURLs: ["/*"] }]))).toEqual([]));
  it("TestValidateRoleNamespacedNonResourceURL", () => {
    const errs = validateRole(role([{ verbs: ["get"], nonResourceURLs: ["/*"] }]));
    expectAll(errs, "Invalid", "rules[0].nonResourceURLs");
    expect(aggregateMessage(errs)).toBe(
      'rules[0].nonResourceURLs: Invalid value: []string{"/*"}: namespaced rules cannot apply to non-resource URLs',
    );
  });
  it("TestValidateRoleNonResourceURLNoVerbs", () => {
    const errs = validateClusterRole(clusterRole([{ verbs: [], nonResourceURLs: ["/*"] }]));
    expectAll(errs, "Required", "rules[0].verbs");
    expect(aggregateMessage(errs)).toBe("rules[0].verbs: Required value: verbs must contain at least one value");
  });
  it("TestValidateRoleMixedNonResourceAndResource", () => {
    const errs = validateRole(role([{ verbs: ["get"], nonResourceURLs: ["/*"], apiGroups: ["v1"], resources: ["pods"] }]));
    // A namespaced role gets both messages on the same field.
    expectAll(errs, "Invalid", "rules[0].nonResourceURLs");
    expect(errs.map((e) => e.detail)).toEqual([
      "namespaced rules cannot apply to non-resource URLs",
      "rules cannot apply to both regular resources and non-resource URLs",
    ]);
  });
  it("TestValidateRoleValidResource", () =>
    expect(validateRole(role([{ verbs: ["get"], apiGroups: ["v1"], resources: ["pods"] }]))).toEqual([]));
  it("TestValidateRoleNoAPIGroup", () => {
    const errs = validateRole(role([{ verbs: ["get"], resources: ["pods"] }]));
    expectAll(errs, "Required", "rules[0].apiGroups");
    expect(aggregateMessage(errs)).toBe("rules[0].apiGroups: Required value: resource rules must supply at least one api group");
  });
  it("TestValidateRoleNoResources", () => {
    const errs = validateRole(role([{ verbs: ["get"], apiGroups: ["v1"] }]));
    expectAll(errs, "Required", "rules[0].resources");
    expect(aggregateMessage(errs)).toBe("rules[0].resources: Required value: resource rules must supply at least one resource");
  });
  it("names are path segments (ValidateRBACName): colons allowed, slashes not", () => {
    expect(validateClusterRole({ metadata: { name: "system:controller:x" } })).toEqual([]);
    expect(aggregateMessage(validateClusterRole({ metadata: { name: "a/b" } }))).toBe(
      `metadata.name: Invalid value: "a/b": may not contain '/'`,
    );
  });
  it("ValidateRoleUpdate adds the metadata update rules", () => {
    const old = role([], { namespace: "default", name: "r", resourceVersion: "1" });
    expect(validateRoleUpdate(role([], { namespace: "default", name: "r", resourceVersion: "1" }), old)).toEqual([]);
    expectAll(validateRoleUpdate(role([], { namespace: "default", name: "r" }), old), "Invalid", "metadata.resourceVersion");
  });
});

describe("ValidateClusterRole aggregationRule", () => {
  const agg = (clusterRoleSelectors: NonNullable<RoleShape["aggregationRule"]>["clusterRoleSelectors"]): RoleShape => ({
    metadata: { name: "aggregated" },
    aggregationRule: { clusterRoleSelectors },
  });
  it("accepts label selectors", () => {
    expect(validateClusterRole(agg([{ matchLabels: { "rbac.example.com/aggregate-to-monitoring": "true" } }]))).toEqual([]);
  });
  it("requires at least one selector", () => {
    expect(aggregateMessage(validateClusterRole(agg([])))).toBe(
      "aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil",
    );
  });
  it("reports the selector's errors and that it is not a selector", () => {
    const errs = validateClusterRole(agg([{ matchExpressions: [{ key: "a", operator: "In" }] }]));
    expect(errs.map((e) => `${e.type} ${e.field}`)).toEqual([
      "Required aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values",
      "Invalid aggregationRule.clusterRoleSelectors[0]",
    ]);
    expect(aggregateMessage(errs)).toBe(
      "[aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn', " +
        'aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.]',
    );
  });
  it("rejects invalid label values unless the stored role already had them", () => {
    const bad = agg([{ matchExpressions: [{ key: "a", operator: "In", values: ["-bad"] }] }]);
    expect(validateClusterRole(bad).map((e) => e.field)).toEqual([
      "aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values[0]",
      "aggregationRule.clusterRoleSelectors[0]",
    ]);
    expect(validateClusterRoleUpdate(bad, bad, { allowInvalidLabelValueInSelector: true }).map((e) => e.field)).toEqual([
      "aggregationRule.clusterRoleSelectors[0]",
      "metadata.resourceVersion",
    ]);
  });
  it("reports bad operators and label keys", () => {
    const errs = validateClusterRole(
      agg([{ matchLabels: { "a b": "x" }, matchExpressions: [{ key: "k", operator: "Gt", values: ["1"] }] }]),
    );
    expect(errs.map((e) => `${e.type} ${e.field}`)).toEqual([
      "Invalid aggregationRule.clusterRoleSelectors[0].matchLabels",
      "Invalid aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator",
      "Invalid aggregationRule.clusterRoleSelectors[0]",
    ]);
  });
});

describe("ValidateRoleBindingSubject", () => {
  const crb = (subjects: Subject[]): RoleBindingShape => ({
    metadata: { name: "b" },
    roleRef: { apiGroup: g, kind: "ClusterRole", name: "view" },
    subjects,
  });
  it.each([
    [
      { kind: "User", name: "alice", apiGroup: "" },
      'subjects[0].apiGroup: Unsupported value: "": supported values: "rbac.authorization.k8s.io"',
    ],
    [
      { kind: "Group", name: "devs", apiGroup: "v1" },
      'subjects[0].apiGroup: Unsupported value: "v1": supported values: "rbac.authorization.k8s.io"',
    ],
    [
      { kind: "ServiceAccount", name: "sa", namespace: "ns", apiGroup: g },
      'subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
    ],
    [{ kind: "Robot", name: "r" }, 'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"'],
    [{ kind: "User", name: "", apiGroup: g }, "subjects[0].name: Required value"],
  ] as [Subject, string][])("%j", (s, want) => {
    expect(aggregateMessage(validateClusterRoleBinding(crb([s])))).toBe(want);
  });
  it("a missing roleRef reports each of its fields", () => {
    expect(aggregateMessage(validateRoleBinding({ metadata: { namespace: "default", name: "b" } }))).toBe(
      '[roleRef.apiGroup: Unsupported value: "": supported values: "rbac.authorization.k8s.io", roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole", roleRef.name: Required value]',
    );
  });
});
