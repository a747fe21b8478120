/**
 * printers_test.go TestPrintRoleBinding and TestPrintClusterRoleBinding (their cases by their
 * comments), and the default convertor's rows (apiserver pkg/registry/rest/table.go) for Role and
 * ClusterRole.
 */
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { generateTable } from "../tablegenerator.ts";
import {
  clusterRoleBindingHandler,
  clusterRoleHandler,
  formatRFC3339UTC,
  roleBindingHandler,
  roleHandler,
  subjectsStrings,
} from "./rbac.ts";

const now = new Date("2025-01-01T00:00:00Z");
// time.Now().Add(1.9e9): created 1.9 s in the future, which HumanDuration prints as 0s.
const future = new Date(now.getTime() + 1900).toISOString();
const subjects = [
  { kind: "User", name: "user-name" },
  { kind: "Group", name: "group-name" },
  { kind: "ServiceAccount", name: "service-account-name", namespace: "service-account-namespace" },
];

describe.each([
  ["TestPrintRoleBinding", roleBindingHandler],
  ["TestPrintClusterRoleBinding", clusterRoleBindingHandler],
] as const)("%s", (_name, handler) => {
  it.each([
    [
      "Basic role binding",
      { metadata: { name: "binding1", creationTimestamp: future }, subjects: [{ kind: "User", name: "system:kube-controller-manager" }] },
      { kind: "Role", name: "extension-apiserver-authentication-reader" },
      false,
      ["binding1", "Role/extension-apiserver-authentication-reader", "0s"],
    ],
    [
      "Generate options=Wide; print subject and roles.",
      { metadata: { name: "binding2", creationTimestamp: future }, subjects },
      { kind: "Role", name: "role-name" },
      true,
      ["binding2", "Role/role-name", "0s", "user-name", "group-name", "service-account-namespace/service-account-name"],
    ],
  ])("%s", (_case, base, roleRef, wide, cells) => {
    const binding = { ...base, roleRef: { apiGroup: "", ...roleRef } } as RoleBinding & ClusterRoleBinding;
    expect(handler.printRow(binding, { wide, now })).toEqual(cells);
  });

  it("defines NAME ROLE AGE and the wide USERS GROUPS SERVICEACCOUNTS", () => {
    expect(handler.columnDefinitions.map((c) => [c.name, c.priority])).toEqual([
      ["Name", 0],
      ["Role", 0],
      ["Age", 0],
      ["Users", 1],
      ["Groups", 1],
      ["ServiceAccounts", 1],
    ]);
  });
});

describe("subjectsStrings (pkg/apis/rbac/helpers.go SubjectsStrings)", () => {
  it("sorts subjects by kind, keeping their order, and joins several with ', '", () => {
    const s = subjectsStrings([
      { kind: "User", name: "b" },
      { kind: "ServiceAccount", name: "sa" },
      { kind: "User", name: "a" },
      { kind: "Robot", name: "r2", namespace: "ns" },
    ]);
    expect(s).toEqual({ users: ["b", "a"], groups: [], serviceAccounts: ["/sa"], others: ["Robot/ns/r2"] });
    const b = { metadata: { name: "x" }, roleRef: { apiGroup: "", kind: "ClusterRole", name: "view" }, subjects: [] } as RoleBinding;
    expect(
      roleBindingHandler.printRow(
        {
          ...b,
          subjects: [
            { kind: "User", name: "b" },
            { kind: "User", name: "a" },
          ],
        },
        { wide: true, now },
      ),
    ).toEqual(["x", "ClusterRole/view", "<unknown>", "b, a", "", ""]);
  });
});

describe("Role and ClusterRole (the default table convertor)", () => {
  it.each([
    ["creation time in UTC, whole seconds", "2024-03-05T06:07:08.123+02:00", "2024-03-05T04:07:08Z"],
    ["missing: Go's zero time", undefined, "0001-01-01T00:00:00Z"],
  ])("%s", (_name, ts, want) => {
    expect(formatRFC3339UTC(ts)).toBe(want);
    const role = { metadata: { name: "r", ...(ts !== undefined ? { creationTimestamp: ts } : {}) } } as Role;
    expect(roleHandler.printRow(role, { wide: true, now })).toEqual(["r", want]);
    expect(clusterRoleHandler.printRow(role as ClusterRole, { wide: false, now })).toEqual(["r", want]);
  });

  it("has NAME and CREATED AT (type date), also with wide", () => {
    const t = generateTable(clusterRoleHandler, [{ metadata: { name: "admin", creationTimestamp: "2025-01-01T00:00:00Z" } }], {
      wide: true,
      now,
      includeObject: "None",
    });
    expect(t.columnDefinitions.map((c) => [c.name, c.type, c.format])).toEqual([
      ["Name", "string", "name"],
      ["Created At", "date", ""],
    ]);
    expect(t.rows).toEqual([{ cells: ["admin", "2025-01-01T00:00:00Z"] }]);
  });
});
