import { afterEach, describe, expect, it } from "vitest";
import type { ClusterRole, ClusterRoleBinding } from "@servicenet/api";
import { createStore, type Store } from "../../../storage/index.ts";
import { newRESTStorage, type RESTStorage } from "../../../server/rest-storage.ts";
import { resourceTable } from "../../../server/resources.ts";
import { bootstrapPolicy, ensureRBACPolicy } from "./ensure-rbac-policy.ts";

describe("ensureRBACPolicy (rbac/bootstrap-roles)", () => {
  let store: Store;
  let reg: RESTStorage;
  afterEach(async () => {
    reg.stop();
    await store.close();
  });

  it("creates the bootstrap policy, then adds missing rules and subjects and respects autoupdate=false", async () => {
    store = await createStore({ backend: "memory" });
    reg = newRESTStorage(store, resourceTable);
    const roles = reg.stores.get("clusterroles")!;
    const bindings = reg.stores.get("clusterrolebindings")!;
    const lines: string[] = [];
    await ensureRBACPolicy(bootstrapPolicy(), reg.stores, (_, m) => lines.push(m));
    expect(lines).toContain("created clusterrole.rbac.authorization.k8s.io/cluster-admin");
    expect(lines).toContain("created clusterrolebinding.rbac.authorization.k8s.io/system:controller:endpoint-controller");
    const view = (await roles.get(undefined, "view")) as unknown as ClusterRole;
    expect(view.metadata.annotations).toEqual({ "rbac.authorization.kubernetes.io/autoupdate": "true" });
    expect(view.aggregationRule).toEqual({
      clusterRoleSelectors: [{ matchLabels: { "rbac.authorization.k8s.io/aggregate-to-view": "true" } }],
    });

    // A user trims a role and a binding; another role is protected from updates.
    await roles.update(undefined, "system:discovery", async (cur) => ({ ...cur!, rules: [] }));
    await bindings.update(undefined, "system:basic-user", async (cur) => ({
      ...cur!,
      subjects: [{ kind: "User", apiGroup: "rbac.authorization.k8s.io", name: "extra" }],
    }));
    await roles.update(undefined, "system:monitoring", async (cur) => ({
      ...cur!,
      metadata: { ...cur!.metadata, annotations: { "rbac.authorization.kubernetes.io/autoupdate": "false" } },
      rules: [],
    }));
    lines.length = 0;
    await ensureRBACPolicy(bootstrapPolicy(), reg.stores, (_, m) => lines.push(m));
    expect(((await roles.get(undefined, "system:discovery")) as unknown as ClusterRole).rules).toHaveLength(11);
    const basic = (await bindings.get(undefined, "system:basic-user")) as unknown as ClusterRoleBinding;
    expect(basic.subjects?.map((s) => s.name)).toEqual(["extra", "system:authenticated"]);
    expect(((await roles.get(undefined, "system:monitoring")) as unknown as ClusterRole).rules).toEqual([]);
    expect(
      lines.some((l) =>
        l.startsWith("skipped reconcile-protected clusterrole.rbac.authorization.k8s.io/system:monitoring with missing permissions"),
      ),
    ).toBe(true);
    expect(
      lines.some((l) => l.startsWith("updated clusterrolebinding.rbac.authorization.k8s.io/system:basic-user with additional subjects")),
    ).toBe(true);
  });
});
