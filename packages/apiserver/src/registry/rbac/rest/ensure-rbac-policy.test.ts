// The start-up reconciliation of pkg/registry/rbac/rest/storage_rbac.go EnsureRBACPolicy through the
// apiserver's own storage: the whole bootstrap policy is created, then reconciled as upstream does for
// objects a user changed (integration tests test/integration/auth/rbac_test.go TestBootstrapping,
// TestBootstrappingAfterAggregation-like cases, and the discovery split of primeSplitClusterRoleBindings).
import { textLogger } from "@servicenet/component-base/logs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role } from "@servicenet/api";
import { createStore, type Store } from "../../../storage/index.ts";
import { newRESTStorage, type RESTStorage } from "../../../server/rest-storage.ts";
import { resourceTable } from "../../../server/resources.ts";
import type { GenericStore } from "../../generic/store.ts";
import { bootstrapPolicy, ensureRBACPolicy } from "./ensure-rbac-policy.ts";

const autoupdate = "rbac.authorization.kubernetes.io/autoupdate";
const group = (name: string) => ({ kind: "Group", apiGroup: "rbac.authorization.k8s.io", name });

describe("ensureRBACPolicy (rbac/bootstrap-roles)", () => {
  let store: Store;
  let reg: RESTStorage;
  let s: (resource: string) => GenericStore;
  const lines: string[] = [];
  const ensure = async () => {
    lines.length = 0;
    await ensureRBACPolicy(
      bootstrapPolicy(),
      reg.stores,
      textLogger((m) => lines.push(m), { verbosity: 2 }),
    );
  };
  const get = async <T>(resource: string, name: string, namespace?: string) => (await s(resource).get(namespace, name)) as unknown as T;
  const edit = async <T>(resource: string, name: string, change: (o: T) => T, namespace?: string) => {
    await s(resource).update(namespace, name, async (cur) => change(structuredClone(cur) as unknown as T) as never);
  };

  beforeEach(async () => {
    store = await createStore({ backend: "memory" });
    reg = newRESTStorage(store, resourceTable);
    s = (resource) => reg.stores.get(resource)!;
  });
  afterEach(async () => {
    reg.stop();
    await store.close();
  });

  it("creates every bootstrap object, and the namespaces of the namespaced ones", async () => {
    await ensure();
    const p = bootstrapPolicy();
    const names = async (resource: string, namespace?: string) =>
      (await s(resource).list(namespace, {})).items.map((o) => o.metadata.name).sort();
    expect(await names("clusterroles")).toEqual(p.clusterRoles.map((r) => r.metadata.name).sort());
    expect(await names("clusterrolebindings")).toEqual(p.clusterRoleBindings.map((r) => r.metadata.name).sort());
    expect(await names("roles", "kube-system")).toEqual([
      "extension-apiserver-authentication-reader",
      "system::leader-locking-kube-controller-manager",
      "system::leader-locking-kube-scheduler",
      "system:controller:bootstrap-signer",
      "system:controller:cloud-provider",
      "system:controller:token-cleaner",
    ]);
    expect(await names("rolebindings", "kube-public")).toEqual(["system:controller:bootstrap-signer"]);
    expect(await names("namespaces")).toEqual(expect.arrayContaining(["kube-public", "kube-system"]));
    expect(lines).toContain('"created role.rbac.authorization.k8s.io/extension-apiserver-authentication-reader in kube-system"');
    expect(lines).toContain('"created clusterrole.rbac.authorization.k8s.io/system:kube-scheduler"');
    const view = await get<ClusterRole>("clusterroles", "view");
    expect(view.metadata.annotations).toEqual({ [autoupdate]: "true" });
  });

  it("adds missing rules and subjects, keeps what a user added, and leaves autoupdate=false alone", async () => {
    await ensure();
    const extra: PolicyRule = { verbs: ["get"], apiGroups: [""], resources: ["configmaps"] };
    // A user replaces a role's rules with their own, and adds a subject to a binding.
    await edit<ClusterRole>("clusterroles", "system:discovery", (r) => ({ ...r, rules: [extra] }));
    await edit<ClusterRoleBinding>("clusterrolebindings", "system:basic-user", (b) => ({ ...b, subjects: [group("extra")] }));
    await edit<Role>("roles", "system:controller:token-cleaner", (r) => ({ ...r, rules: [extra] }), "kube-system");
    // ...and protects others from updates.
    const protect = <T extends { metadata: ClusterRole["metadata"] }>(o: T): T => ({
      ...o,
      metadata: { ...o.metadata, annotations: { [autoupdate]: "false" } },
    });
    await edit<ClusterRole>("clusterroles", "system:monitoring", (r) => ({ ...protect(r), rules: [] }));
    await edit<ClusterRoleBinding>("clusterrolebindings", "system:kube-dns", (b) => ({ ...protect(b), subjects: [] }));
    await edit<Role>("roles", "extension-apiserver-authentication-reader", (r) => ({ ...protect(r), rules: [] }), "kube-system");

    await ensure();
    const discovery = await get<ClusterRole>("clusterroles", "system:discovery");
    expect(discovery.rules?.[0]).toEqual(extra);
    // the missing permissions are appended broken down, one rule per URL (validation.Covers / BreakdownRule)
    const urls = bootstrapPolicy().clusterRoles.find((r) => r.metadata.name === "system:discovery")?.rules?.[0]?.nonResourceURLs;
    expect(discovery.rules?.slice(1)).toEqual(urls?.map((u) => ({ verbs: ["get"], nonResourceURLs: [u] })));
    expect((await get<ClusterRoleBinding>("clusterrolebindings", "system:basic-user")).subjects).toEqual([
      group("extra"),
      group("system:authenticated"),
    ]);
    const cleaner = await get<Role>("roles", "system:controller:token-cleaner", "kube-system");
    // its rules broken down: 4 secrets verbs, 3 event verbs in each of 2 groups
    expect(cleaner.rules?.length).toBe(1 + 4 + 6);
    expect(cleaner.rules?.[0]).toEqual(extra);

    expect((await get<ClusterRole>("clusterroles", "system:monitoring")).rules).toEqual([]);
    expect((await get<ClusterRoleBinding>("clusterrolebindings", "system:kube-dns")).subjects).toEqual([]);
    expect((await get<Role>("roles", "extension-apiserver-authentication-reader", "kube-system")).rules).toEqual([]);
    const skipped = lines.filter((l) => l.startsWith('"skipped reconcile-protected'));
    expect(skipped.map((l) => l.split(" with ")[0])).toEqual([
      '"skipped reconcile-protected clusterrole.rbac.authorization.k8s.io/system:monitoring',
      '"skipped reconcile-protected clusterrolebinding.rbac.authorization.k8s.io/system:kube-dns',
      '"skipped reconcile-protected role.rbac.authorization.k8s.io/extension-apiserver-authentication-reader in kube-system',
    ]);
    expect(lines.some((l) => l.startsWith('"updated rolebinding.') || l.startsWith('"created '))).toBe(false);
  });

  it("creates system:public-info-viewer from system:discovery's subjects, labels and annotations (primeSplitClusterRoleBindings)", async () => {
    // A cluster from before the split: system:discovery bound to a custom group and protected.
    const old: ClusterRoleBinding = {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name: "system:discovery", labels: { team: "ops" }, annotations: { [autoupdate]: "false" } },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "system:discovery" },
      subjects: [group("system:authenticated"), group("partners")],
    };
    await s("clusterrolebindings").create(undefined, old);
    await ensure();
    const viewer = await get<ClusterRoleBinding>("clusterrolebindings", "system:public-info-viewer");
    expect(viewer.roleRef.name).toBe("system:public-info-viewer");
    // the copy keeps the opt-out, so reconciliation does not add system:unauthenticated to it
    expect(viewer.subjects).toEqual([group("system:authenticated"), group("partners")]);
    expect(viewer.metadata.labels).toEqual({ team: "ops" });
    expect(viewer.metadata.annotations).toEqual({ [autoupdate]: "false" });
  });

  it("copies a customised pre-aggregation role to its aggregate-to-* part (primeAggregatedClusterRoles)", async () => {
    const custom: PolicyRule = { verbs: ["get"], apiGroups: ["example.com"], resources: ["widgets"] };
    const oldEdit: ClusterRole = {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name: "edit" },
      rules: [custom],
    };
    await s("clusterroles").create(undefined, oldEdit);
    await ensure();
    const part = await get<ClusterRole>("clusterroles", "system:aggregate-to-edit");
    expect(part.rules?.[0]).toEqual(custom);
    expect(part.metadata.labels).toMatchObject({ "rbac.authorization.k8s.io/aggregate-to-edit": "true" });
    expect((await get<ClusterRole>("clusterroles", "edit")).aggregationRule).toEqual({
      clusterRoleSelectors: [{ matchLabels: { "rbac.authorization.k8s.io/aggregate-to-edit": "true" } }],
    });
  });
});
