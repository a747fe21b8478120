/**
 * pkg/registry/rbac/rolebinding/policybased/storage.go: a binding is allowed to system:masters,
 * to users with `bind` on the role, and to users holding the role's rules; on a memory store.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UserInfo } from "../../../../authentication/user/user.ts";
import { createStore, type KubeObject, type Store } from "../../../../storage/index.ts";
import { recordingAuthorizer, staticRuleResolver } from "../../testing.ts";
import { roleBindingStrategy } from "../strategy.ts";
import { newRoleBindingStorage } from "./storage.ts";

const superuser: UserInfo = { name: "superuser", uid: "", groups: ["system:masters"] };
const bob: UserInfo = { name: "bob", uid: "", groups: ["system:authenticated"] };
const steve: UserInfo = { name: "steve", uid: "", groups: [] };
const alice: UserInfo = { name: "alice", uid: "", groups: [] };

const binding = (roleName = "pod-reader", kind = "Role"): KubeObject => ({
  apiVersion: "rbac.authorization.k8s.io/v1",
  kind: "RoleBinding",
  metadata: { name: "b", namespace: "myns" },
  roleRef: { apiGroup: "rbac.authorization.k8s.io", kind, name: roleName },
  subjects: [{ kind: "User", apiGroup: "rbac.authorization.k8s.io", name: "someone" }],
});

describe("RoleBinding escalation and bind checks", () => {
  let store: Store;
  beforeEach(async () => {
    store = await createStore({ backend: "memory" });
  });
  afterEach(async () => {
    await store.close();
  });
  const authz = recordingAuthorizer((a) => (a.user?.name === "steve" && a.verb === "bind" ? "Allow" : "NoOpinion"));
  const resolver = staticRuleResolver({
    users: { alice: { myns: [{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list"] }] } },
    roles: {
      "Role/myns/pod-reader": [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }],
      "ClusterRole//admin": [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }],
    },
  });
  const storage = () =>
    newRoleBindingStorage(
      store,
      { group: "rbac.authorization.k8s.io", resource: "rolebindings", storagePath: "rolebindings", strategy: roleBindingStrategy },
      { authorizer: authz, ruleResolver: resolver },
    );

  it.each([
    ["superuser", superuser, false, true],
    ["bob", bob, true, false],
    ["steve", steve, true, true],
    ["alice", alice, true, true],
  ] as const)("%s", async (_name, user, expectAuthz, expectAllowed) => {
    authz.calls.length = 0;
    const create = storage().create("myns", binding(), { user });
    if (expectAllowed) await expect(create).resolves.toBeDefined();
    else await expect(create).rejects.toMatchObject({ reason: "Forbidden" });
    expect(authz.calls.length > 0).toBe(expectAuthz);
    if (expectAuthz)
      expect(authz.calls[0]).toMatchObject({
        verb: "bind",
        apiGroup: "rbac.authorization.k8s.io",
        resource: "roles",
        name: "pod-reader",
        namespace: "myns",
        resourceRequest: true,
      });
  });

  it("refuses binding a role with rights the user lacks, with upstream's message", async () => {
    await expect(storage().create("myns", binding("admin", "ClusterRole"), { user: bob })).rejects.toThrow(
      'rolebindings.rbac.authorization.k8s.io "b" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}',
    );
    expect(authz.calls.at(-1)).toMatchObject({ verb: "bind", resource: "clusterroles", name: "admin", namespace: "myns" });
  });

  it("answers NotFound for a missing role it must resolve", async () => {
    await expect(storage().create("myns", binding("nope"), { user: bob })).rejects.toMatchObject({ reason: "NotFound" });
  });

  it("checks updates inside the update (a patch's result)", async () => {
    await storage().create("myns", binding(), { user: alice });
    const s = storage();
    await expect(s.update("myns", "b", async (cur) => ({ ...cur!, subjects: [] }), { user: bob })).rejects.toMatchObject({
      reason: "Forbidden",
    });
    await expect(s.update("myns", "b", async (cur) => ({ ...cur!, subjects: [] }), { user: alice })).resolves.toBeDefined();
  });
});
