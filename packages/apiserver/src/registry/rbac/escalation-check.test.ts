/** pkg/registry/rbac/escalation_check.go: EscalationAllowed, RoleEscalationAuthorized, BindingAuthorized. */
import { describe, expect, it } from "vitest";
import { bindingAuthorized, escalationAllowed, roleEscalationAuthorized } from "./escalation-check.ts";
import { recordingAuthorizer } from "./testing.ts";

const user = { name: "u", uid: "", groups: ["g"] };

describe("EscalationAllowed", () => {
  it("is true for system:masters only", () => {
    expect(escalationAllowed({ ...user, groups: ["system:authenticated", "system:masters"] })).toBe(true);
    expect(escalationAllowed(user)).toBe(false);
  });
});

describe("RoleEscalationAuthorized", () => {
  it("asks for escalate on roles and clusterroles only", async () => {
    const a = recordingAuthorizer(() => "Allow");
    expect(
      await roleEscalationAuthorized(user, a, { apiGroup: "rbac.authorization.k8s.io", resource: "roles", name: "r", namespace: "ns" }),
    ).toBe(true);
    expect(a.calls[0]).toEqual({
      user,
      verb: "escalate",
      namespace: "ns",
      apiGroup: "rbac.authorization.k8s.io",
      apiVersion: "*",
      resource: "roles",
      subresource: "",
      name: "r",
      resourceRequest: true,
      path: "",
    });
    expect(
      await roleEscalationAuthorized(user, a, {
        apiGroup: "rbac.authorization.k8s.io",
        resource: "rolebindings",
        name: "r",
        namespace: "ns",
      }),
    ).toBe(false);
    expect(
      await roleEscalationAuthorized(user, undefined, {
        apiGroup: "rbac.authorization.k8s.io",
        resource: "roles",
        name: "r",
        namespace: "ns",
      }),
    ).toBe(false);
    expect(
      await roleEscalationAuthorized(
        user,
        recordingAuthorizer(() => "NoOpinion"),
        { apiGroup: "rbac.authorization.k8s.io", resource: "clusterroles", name: "", namespace: "" },
      ),
    ).toBe(false);
  });
});

describe("BindingAuthorized", () => {
  it.each([
    [{ apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" }, "clusterroles"],
    [{ apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "view" }, "roles"],
  ])("asks for bind on %j", async (ref, resource) => {
    const a = recordingAuthorizer(() => "Allow");
    expect(await bindingAuthorized(user, ref, "ns", a)).toBe(true);
    expect(a.calls[0]).toMatchObject({
      verb: "bind",
      namespace: "ns",
      apiGroup: ref.apiGroup,
      resource,
      name: "view",
      resourceRequest: true,
      apiVersion: "",
    });
  });
  it("is false for other kinds and without an authorizer", async () => {
    const a = recordingAuthorizer(() => "Allow");
    expect(await bindingAuthorized(user, { apiGroup: "rbac.authorization.k8s.io", kind: "Other", name: "x" }, "", a)).toBe(false);
    expect(a.calls).toHaveLength(0);
    expect(await bindingAuthorized(user, { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "x" }, "", undefined)).toBe(false);
  });
});
