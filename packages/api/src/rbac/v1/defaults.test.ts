/** pkg/apis/rbac/v1/defaults.go (and defaults_test.go's subject cases). */
import { describe, expect, it } from "vitest";
import { setDefaultsRoleBinding, setDefaultsSubject } from "./defaults.ts";
import type { Subject } from "./types.ts";

describe("SetDefaults_Subject", () => {
  it.each([
    [{ kind: "User", name: "alice" }, "rbac.authorization.k8s.io"],
    [{ kind: "Group", name: "devs" }, "rbac.authorization.k8s.io"],
    [{ kind: "ServiceAccount", name: "sa", namespace: "ns" }, undefined],
    [{ kind: "ServiceAccount", name: "sa", namespace: "ns", apiGroup: "" }, undefined],
    [{ kind: "User", name: "alice", apiGroup: "other" }, "other"],
    [{ kind: "Robot", name: "r" }, undefined],
  ] as [Subject, string | undefined][])("%j -> %j", (s, want) => {
    setDefaultsSubject(s);
    expect(s.apiGroup).toBe(want);
  });
});

describe("SetDefaults_RoleBinding", () => {
  it("defaults roleRef.apiGroup and each subject", () => {
    const b = { roleRef: { apiGroup: "", kind: "ClusterRole", name: "view" }, subjects: [{ kind: "User", name: "alice" }] };
    setDefaultsRoleBinding(b);
    expect(b).toEqual({
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
      subjects: [{ kind: "User", name: "alice", apiGroup: "rbac.authorization.k8s.io" }],
    });
  });
  it("keeps a roleRef.apiGroup that is set", () => {
    const b = { roleRef: { apiGroup: "example.com", kind: "ClusterRole", name: "view" } };
    setDefaultsRoleBinding(b);
    expect(b.roleRef.apiGroup).toBe("example.com");
  });
});
