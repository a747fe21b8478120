// The golden tests of plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy_test.go
// (TestBootstrapNamespaceRoles, TestBootstrapNamespaceRoleBindings, TestBootstrapClusterRoles,
// TestBootstrapClusterRoleBindings, TestBootstrapControllerRoles, TestBootstrapControllerRoleBindings
// and the feature-gated fixture): the whole policy, object for object and rule for rule, against
// upstream's testdata in ./testdata.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { controllerRoleBindings, controllerRoles, saRolePrefix } from "./controller-policy.ts";
import { namespaceRoleBindings, namespaceRoles } from "./namespace-policy.ts";
import { clusterRoleBindings } from "./policy-bindings.ts";
import { clusterRoles } from "./policy.ts";
import { allPolicyFeatureGates, defaultPolicyFeatureGates } from "./policy-gates.ts";

interface Obj {
  metadata: { name?: string | undefined; namespace?: string | undefined; creationTimestamp?: string | null | undefined };
}

/** The fixture's items, without the `creationTimestamp: null` older Go encoders wrote. */
function golden(file: string): Obj[] {
  const list = parse(readFileSync(new URL(`./testdata/${file}`, import.meta.url), "utf8")) as { items: Obj[] };
  return list.items.map((i) => {
    const { creationTimestamp: _, ...metadata } = i.metadata;
    return { ...i, metadata };
  });
}

/** Sorted as upstream's fixtures are: by namespace, then name, in byte order. */
function sorted<T extends Obj>(xs: readonly T[]): T[] {
  const key = (o: Obj) => `${o.metadata.namespace ?? ""}/${o.metadata.name ?? ""}`;
  return [...xs].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

const flat = <T>(byNamespace: Record<string, T[]>): T[] => Object.values(byNamespace).flat();

describe("bootstrap policy (golden, upstream testdata)", () => {
  it("TestBootstrapNamespaceRoles", () => {
    expect(sorted(flat(namespaceRoles()))).toEqual(golden("namespace-roles.yaml"));
  });
  it("TestBootstrapNamespaceRoleBindings", () => {
    expect(sorted(flat(namespaceRoleBindings()))).toEqual(golden("namespace-role-bindings.yaml"));
  });
  it("TestBootstrapClusterRoles", () => {
    expect(sorted(clusterRoles(defaultPolicyFeatureGates))).toEqual(golden("cluster-roles.yaml"));
  });
  it("TestBootstrapClusterRoles with every feature gate on", () => {
    expect(sorted(clusterRoles(allPolicyFeatureGates))).toEqual(golden("cluster-roles-featuregates.yaml"));
  });
  it("TestBootstrapClusterRoleBindings", () => {
    expect(sorted(clusterRoleBindings(defaultPolicyFeatureGates))).toEqual(golden("cluster-role-bindings.yaml"));
  });
  it("TestBootstrapControllerRoles", () => {
    expect(sorted(controllerRoles(defaultPolicyFeatureGates))).toEqual(golden("controller-roles.yaml"));
  });
  it("TestBootstrapControllerRoleBindings", () => {
    expect(sorted(controllerRoleBindings(defaultPolicyFeatureGates))).toEqual(golden("controller-role-bindings.yaml"));
  });
});

// controller_policy_test.go TestNoStarsForControllers: only these controllers may hold `*` rules.
describe("TestNoStarsForControllers", () => {
  const allowStar = new Set([
    "namespace-controller",
    "generic-garbage-collector",
    "resourcequota-controller",
    "horizontal-pod-autoscaler",
    "clusterrole-aggregation-controller",
    "disruption-controller",
    "storage-version-migrator-controller",
  ]);
  it("finds no `*` outside them", () => {
    const offenders = controllerRoles(allPolicyFeatureGates)
      .filter((r) => !allowStar.has((r.metadata.name ?? "").slice(saRolePrefix.length)))
      .filter((r) => (r.rules ?? []).some((p) => [...p.verbs, ...(p.apiGroups ?? []), ...(p.resources ?? [])].includes("*")))
      .map((r) => r.metadata.name);
    expect(offenders).toEqual([]);
  });
});

// policy_test.go TestClusterRoleLabel / controller_policy_test.go TestControllerRoleLabel.
describe("TestClusterRoleLabel", () => {
  it("labels and annotates every bootstrap object", () => {
    const all = [
      ...clusterRoles(allPolicyFeatureGates),
      ...clusterRoleBindings(allPolicyFeatureGates),
      ...controllerRoles(allPolicyFeatureGates),
      ...controllerRoleBindings(allPolicyFeatureGates),
      ...flat(namespaceRoles()),
      ...flat(namespaceRoleBindings()),
    ];
    for (const o of all) {
      expect(o.metadata.labels?.["kubernetes.io/bootstrapping"], o.metadata.name).toBe("rbac-defaults");
      expect(o.metadata.annotations?.["rbac.authorization.kubernetes.io/autoupdate"], o.metadata.name).toBe("true");
    }
  });
});
