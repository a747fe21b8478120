/**
 * The RBAC describers, pinned to kubectl 1.33's output for the same objects (captured from the
 * binary on the fake apiserver; src/cmd/rbac-differential.test.ts compares them live).
 */
import { describe, expect, it } from "vitest";
import { clusterRoles, roleBindings } from "../testing/fixtures/rbac.ts";
import { combineResourceGroup, describeClusterRole, describeRoleBinding } from "./rbac.ts";

describe("RBAC describers", () => {
  it("ClusterRoleDescriber: rules broken down, compacted and sorted", () => {
    expect(describeClusterRole(clusterRoles[0]!)).toBe(
      [
        "Name:         edit-ish",
        "Labels:       kubernetes.io/bootstrapping=rbac-defaults",
        "              rbac.authorization.k8s.io/aggregate-to-edit=true",
        "Annotations:  rbac.authorization.kubernetes.io/autoupdate: true",
        "PolicyRule:",
        "  Resources               Non-Resource URLs  Resource Names      Verbs",
        "  ---------               -----------------  --------------      -----",
        "  *.*                     []                 []                  [*]",
        "  pods                    []                 []                  [get list watch create delete]",
        "  deployments/scale       []                 []                  [get list watch]",
        "  deployments.apps/scale  []                 []                  [get list watch]",
        "  pods.apps               []                 []                  [get list watch]",
        "  configmaps              []                 [cluster-info]      [get update]",
        "  configmaps              []                 [kube-root-ca.crt]  [get update]",
        "                          [/healthz]         []                  [get]",
        "                          [/version/*]       []                  [get]",
        "  nodes.metrics.k8s.io    []                 []                  [get]",
        "  pods.metrics.k8s.io     []                 []                  [get]",
        "                          [/healthz]         []                  [head]",
        "                          [/version/*]       []                  [head]",
        "",
      ].join("\n"),
    );
  });

  it("RoleBindingDescriber: role reference and subjects", () => {
    expect(describeRoleBinding(roleBindings[0]!)).toBe(
      [
        "Name:         read-pods",
        "Labels:       <none>",
        "Annotations:  <none>",
        "Role:",
        "  Kind:  Role",
        "  Name:  pod-reader",
        "Subjects:",
        "  Kind            Name     Namespace",
        "  ----            ----     ---------",
        "  User            jane     ",
        "  Group           devs     ",
        "  ServiceAccount  builder  ci",
        "  User            alice    ",
        "",
      ].join("\n"),
    );
  });

  it.each([
    [["pods"], [""], "pods"],
    [["deployments/scale"], ["apps"], "deployments.apps/scale"],
    [["pods", "nodes"], ["metrics.k8s.io", "x"], "pods.metrics.k8s.io"],
    [[], ["apps"], ""],
    [["pods"], [], "pods"],
  ])("CombineResourceGroup(%j, %j) = %j", (resources, groups, want) => {
    expect(combineResourceGroup(resources, groups)).toBe(want);
  });
});
