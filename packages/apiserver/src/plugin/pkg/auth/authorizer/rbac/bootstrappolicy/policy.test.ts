// The golden test of plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy_test.go
// (TestBootstrapClusterRoles, TestBootstrapClusterRoleBindings, TestBootstrapControllerRoles,
// TestBootstrapControllerRoleBindings) for the roles servicenet ships: each is compared with the
// upstream testdata entries copied into ./testdata.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { controllerRoleBindings, controllerRoles } from "./controller-policy.ts";
import { clusterRoleBindings, clusterRoles } from "./policy.ts";

interface Item {
  metadata: { name: string; creationTimestamp?: null };
}

/** The testdata items, without the `creationTimestamp: null` Go's encoder writes. */
function golden(file: string): Item[] {
  const list = parse(readFileSync(new URL(`./testdata/${file}`, import.meta.url), "utf8")) as { items: Item[] };
  return list.items.map((i) => {
    const { creationTimestamp: _, ...metadata } = i.metadata;
    return { ...i, metadata };
  });
}

const byName = <T extends { metadata: { name?: string } }>(xs: T[]): T[] =>
  [...xs].sort((a, b) => (a.metadata.name ?? "").localeCompare(b.metadata.name ?? ""));

describe("bootstrap policy (golden, upstream testdata)", () => {
  it("TestBootstrapClusterRoles", () => {
    expect(byName(clusterRoles())).toEqual(golden("cluster-roles.yaml"));
  });
  it("TestBootstrapClusterRoleBindings", () => {
    expect(byName(clusterRoleBindings())).toEqual(golden("cluster-role-bindings.yaml"));
  });
  it("TestBootstrapControllerRoles", () => {
    expect(byName(controllerRoles())).toEqual(golden("controller-roles.yaml"));
  });
  it("TestBootstrapControllerRoleBindings", () => {
    expect(byName(controllerRoleBindings())).toEqual(golden("controller-role-bindings.yaml"));
  });
});
