/**
 * pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/strategy_test.go: scope,
 * create-on-update, a valid object validates, an update renaming it does not; plus the
 * ClusterRole update that keeps a stored selector's invalid label value.
 */
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../storage/index.ts";
import type { RESTStrategy } from "../generic/strategy.ts";
import { clusterRoleStrategy } from "./clusterrole/strategy.ts";
import { clusterRoleBindingStrategy } from "./clusterrolebinding/strategy.ts";
import { roleStrategy } from "./role/strategy.ts";
import { roleBindingStrategy } from "./rolebinding/strategy.ts";

const rules = [
  { apiGroups: [""], resourceNames: [], resources: ["endpoints", "nodes", "pods", "services"], verbs: ["get", "list", "watch"] },
];
const roleRef = (kind: string) => ({ apiGroup: "rbac.authorization.k8s.io", kind, name: "valid" });
const subjects = [{ kind: "User", apiGroup: "rbac.authorization.k8s.io", name: "u" }];

describe.each<[string, RESTStrategy, boolean, (meta: KubeObject["metadata"]) => KubeObject]>([
  ["TestRoleStrategy", roleStrategy, true, (metadata) => ({ metadata: { ...metadata, namespace: "default" }, rules })],
  ["TestClusterRoleStrategy", clusterRoleStrategy, false, (metadata) => ({ metadata, rules })],
  [
    "TestRoleBindingStrategy",
    roleBindingStrategy,
    true,
    (metadata) => ({ metadata: { ...metadata, namespace: "default" }, roleRef: roleRef("Role"), subjects }),
  ],
  [
    "TestClusterRoleBindingStrategy",
    clusterRoleBindingStrategy,
    false,
    (metadata) => ({ metadata, roleRef: roleRef("ClusterRole"), subjects }),
  ],
])("%s", (_name, strategy, namespaced, make) => {
  it("is scoped as upstream and allows create on update and unconditional update", () => {
    expect(strategy.namespaced).toBe(namespaced);
    expect(strategy.allowCreateOnUpdate).toBe(true);
    expect(strategy.allowUnconditionalUpdate).toBe(true);
    expect(strategy.subresources).toBeUndefined();
  });
  it("validates a valid object and refuses an update that renames it", () => {
    const old = make({ name: "valid-1", resourceVersion: "3" });
    strategy.prepareForCreate(old);
    expect(strategy.validate(old)).toEqual([]);
    const renamed = make({ name: "valid-2", resourceVersion: "4" });
    expect(strategy.validate(renamed)).toEqual([]);
    strategy.prepareForUpdate(renamed, old);
    expect(strategy.validateUpdate(renamed, old).map((e) => e.field)).toContain("metadata.name");
  });
});

describe("ClusterRole update with a stored invalid selector value", () => {
  const withValue = (v: string, rv: string): KubeObject => ({
    metadata: { name: "agg", resourceVersion: rv },
    aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: "k", operator: "In", values: [v] }] }] },
  });
  it("keeps accepting the value's own error but not on create", () => {
    expect(clusterRoleStrategy.validate(withValue("-bad", "1")).map((e) => e.field)).toContain(
      "aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values[0]",
    );
    const fields = clusterRoleStrategy.validateUpdate(withValue("-bad", "2"), withValue("-bad", "1")).map((e) => e.field);
    expect(fields).not.toContain("aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values[0]");
    // A valid stored role gives no such leeway.
    expect(clusterRoleStrategy.validateUpdate(withValue("-bad", "2"), withValue("good", "1")).map((e) => e.field)).toContain(
      "aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values[0]",
    );
  });
});

describe("binding defaulting", () => {
  it("fills roleRef.apiGroup and subject apiGroups", () => {
    const b: KubeObject = {
      metadata: { name: "b" },
      roleRef: { kind: "ClusterRole", name: "view" },
      subjects: [{ kind: "Group", name: "g" }],
    };
    clusterRoleBindingStrategy.defaults?.(b);
    expect(b).toMatchObject({
      roleRef: { apiGroup: "rbac.authorization.k8s.io" },
      subjects: [{ kind: "Group", name: "g", apiGroup: "rbac.authorization.k8s.io" }],
    });
  });
});
