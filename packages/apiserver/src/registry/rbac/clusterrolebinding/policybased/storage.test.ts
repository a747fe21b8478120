/** pkg/registry/rbac/clusterrolebinding/policybased/storage.go: bind and escalation checks cluster-wide. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UserInfo } from "../../../../authentication/user/user.ts";
import { createStore, type KubeObject, type Store } from "../../../../storage/index.ts";
import { recordingAuthorizer, staticRuleResolver } from "../../testing.ts";
import { clusterRoleBindingStrategy } from "../strategy.ts";
import { newClusterRoleBindingStorage } from "./storage.ts";

const crb = (): KubeObject => ({
  apiVersion: "rbac.authorization.k8s.io/v1",
  kind: "ClusterRoleBinding",
  metadata: { name: "view-all" },
  roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
  subjects: [{ kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: "devs" }],
});

describe("ClusterRoleBinding escalation and bind checks", () => {
  let store: Store;
  beforeEach(async () => {
    store = await createStore({ backend: "memory" });
  });
  afterEach(async () => {
    await store.close();
  });
  const authz = recordingAuthorizer((a) =>
    a.user?.name === "delegate" && a.verb === "bind" && a.namespace === "" ? "Allow" : "NoOpinion",
  );
  const view = [{ apiGroups: [""], resources: ["pods", "services"], verbs: ["get", "list", "watch"] }];
  const resolver = staticRuleResolver({
    users: { viewer: { "": view }, nsviewer: { team: view } },
    roles: { "ClusterRole//view": view },
  });
  const storage = () =>
    newClusterRoleBindingStorage(
      store,
      {
        group: "rbac.authorization.k8s.io",
        resource: "clusterrolebindings",
        storagePath: "clusterrolebindings",
        strategy: clusterRoleBindingStrategy,
      },
      { authorizer: authz, ruleResolver: resolver },
    );
  const u = (name: string): UserInfo => ({ name, uid: "", groups: [] });

  it.each([
    ["a user holding the role's rules cluster-wide", "viewer", true],
    ["a user with bind on the clusterrole", "delegate", true],
    ["a user holding them in one namespace only", "nsviewer", false],
    ["a user without them", "nobody", false],
  ])("%s", async (_name, user, allowed) => {
    authz.calls.length = 0;
    const p = storage().create(undefined, crb(), { user: u(user) });
    if (allowed) await expect(p).resolves.toBeDefined();
    else {
      const e = (await p.catch((err: unknown) => err)) as { reason?: string; status?: { details?: unknown } };
      expect(e.reason).toBe("Forbidden");
      expect(e.status?.details).toEqual({ name: "view-all", group: "rbac.authorization.k8s.io", kind: "clusterrolebindings" });
    }
    expect(authz.calls[0]).toMatchObject({ verb: "bind", resource: "clusterroles", name: "view", namespace: "" });
  });
});
