/** pkg/registry/rbac/role/policybased/storage_test.go TestEscalation, on a memory store. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UserInfo } from "../../../../authentication/user/user.ts";
import { createStore, type KubeObject, type Store } from "../../../../storage/index.ts";
import { GenericStore } from "../../../generic/store.ts";
import { recordingAuthorizer, staticRuleResolver } from "../../testing.ts";
import { roleStrategy } from "../strategy.ts";
import { newRoleStorage } from "./storage.ts";

const superuser: UserInfo = { name: "superuser", uid: "", groups: ["system:masters"] };
const bob: UserInfo = { name: "bob", uid: "", groups: [] };
const steve: UserInfo = { name: "steve", uid: "", groups: [] };
const alice: UserInfo = { name: "alice", uid: "", groups: [] };

const role = (): KubeObject => ({
  apiVersion: "rbac.authorization.k8s.io/v1",
  kind: "Role",
  metadata: { name: "myrole", namespace: "myns" },
  rules: [{ apiGroups: [""], verbs: ["get"], resources: ["pods"] }],
});

describe("TestEscalation (roles)", () => {
  let store: Store;
  beforeEach(async () => {
    store = await createStore({ backend: "memory" });
  });
  afterEach(async () => {
    await store.close();
  });
  const authz = recordingAuthorizer((a) => (a.user?.name === "steve" ? "Allow" : "NoOpinion"));
  const resolver = staticRuleResolver({ users: { alice: { "": [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }] } } });
  const storage = (s: Store) =>
    newRoleStorage(
      s,
      { group: "rbac.authorization.k8s.io", resource: "roles", storagePath: "roles", strategy: roleStrategy },
      { authorizer: authz, ruleResolver: resolver },
    );

  it.each([
    // superuser doesn't even trigger an authz check, and is allowed
    ["superuser", superuser, false, true],
    // bob triggers an authz check, is disallowed by the authorizer, and has no RBAC permissions, so is not allowed
    ["bob", bob, true, false],
    // steve triggers an authz check, is allowed by the authorizer, and has no RBAC permissions, but is still allowed
    ["steve", steve, true, true],
    // alice triggers an authz check, is denied by the authorizer, but has RBAC permissions in the fakeRuleResolver, so is allowed
    ["alice", alice, true, true],
  ] as const)("%s", async (_name, user, expectAuthz, expectAllowed) => {
    const s = storage(store);
    authz.calls.length = 0;
    const create = s.create("myns", role(), { user });
    if (expectAllowed) await expect(create).resolves.toMatchObject({ metadata: { name: "myrole" } });
    else await expect(create).rejects.toMatchObject({ reason: "Forbidden", code: 403 });
    expect(authz.calls.length > 0).toBe(expectAuthz);
    if (expectAuthz)
      expect(authz.calls[0]).toMatchObject({
        verb: "escalate",
        apiGroup: "rbac.authorization.k8s.io",
        apiVersion: "*",
        resource: "roles",
        namespace: "myns",
        name: "",
        resourceRequest: true,
      });

    // The update needs a stored role: a refused user cannot make it.
    if (!expectAllowed) await new GenericStore(store, s.config).create("myns", role());
    authz.calls.length = 0;
    const update = s.update(
      "myns",
      "myrole",
      async () => ({ ...role(), metadata: { name: "myrole", namespace: "myns", labels: { changed: "yes" } } }),
      { user },
    );
    if (expectAllowed) await expect(update).resolves.toMatchObject({ created: false });
    else await expect(update).rejects.toMatchObject({ reason: "Forbidden" });
    expect(authz.calls.length > 0).toBe(expectAuthz);
    if (expectAuthz) expect(authz.calls[0]).toMatchObject({ verb: "escalate", name: "myrole" });
  });

  it("refuses with upstream's message, and without a user or resolver checks nothing", async () => {
    const s = storage(store);
    await expect(s.create("myns", role(), { user: bob })).rejects.toThrow(
      'roles.rbac.authorization.k8s.io "myrole" is forbidden: user "bob" (groups=[]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
    );
    await expect(s.create("myns", role())).resolves.toBeDefined();
    const unchecked = newRoleStorage(store, s.config, {});
    await expect(
      unchecked.create("myns", { ...role(), metadata: { name: "other", namespace: "myns" } }, { user: bob }),
    ).resolves.toBeDefined();
  });

  it("lets an update touching only GC fields through", async () => {
    const s = storage(store);
    await s.create("myns", role());
    const r = await s.update(
      "myns",
      "myrole",
      async (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: ["example.com/x"] } }),
      { user: bob },
    );
    expect(r.object.metadata.finalizers).toEqual(["example.com/x"]);
  });
});
