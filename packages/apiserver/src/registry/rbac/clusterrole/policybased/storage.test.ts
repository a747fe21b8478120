/**
 * pkg/registry/rbac/clusterrole/policybased/storage_test.go TestEscalation, plus the
 * aggregationRule rule (cluster-admin rights needed), on a memory store.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UserInfo } from "../../../../authentication/user/user.ts";
import { createStore, type KubeObject, type Store } from "../../../../storage/index.ts";
import { GenericStore } from "../../../generic/store.ts";
import { recordingAuthorizer, staticRuleResolver } from "../../testing.ts";
import { clusterRoleStrategy } from "../strategy.ts";
import { newClusterRoleStorage } from "./storage.ts";

const superuser: UserInfo = { name: "superuser", uid: "", groups: ["system:masters"] };
const bob: UserInfo = { name: "bob", uid: "", groups: [] };
const steve: UserInfo = { name: "steve", uid: "", groups: [] };
const alice: UserInfo = { name: "alice", uid: "", groups: [] };
const carol: UserInfo = { name: "carol", uid: "", groups: ["devs"] };

const clusterRole = (extra: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: "rbac.authorization.k8s.io/v1",
  kind: "ClusterRole",
  metadata: { name: "myrole" },
  rules: [{ apiGroups: [""], verbs: ["get"], resources: ["pods"] }],
  ...extra,
});

describe("TestEscalation (clusterroles)", () => {
  let store: Store;
  beforeEach(async () => {
    store = await createStore({ backend: "memory" });
  });
  afterEach(async () => {
    await store.close();
  });
  const authz = recordingAuthorizer((a) => (a.user?.name === "steve" ? "Allow" : "NoOpinion"));
  const resolver = staticRuleResolver({
    users: {
      alice: {
        "": [
          { apiGroups: ["*"], resources: ["*"], verbs: ["*"] },
          { nonResourceURLs: ["*"], verbs: ["*"] },
        ],
      },
      carol: { "": [{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list"] }] },
    },
  });
  const config = {
    group: "rbac.authorization.k8s.io",
    resource: "clusterroles",
    storagePath: "clusterroles",
    strategy: clusterRoleStrategy,
  };
  const storage = (s: Store) => newClusterRoleStorage(s, config, { authorizer: authz, ruleResolver: resolver });

  it.each([
    ["superuser", superuser, false, true],
    ["bob", bob, true, false],
    ["steve", steve, true, true],
    ["alice", alice, true, true],
  ] as const)("%s", async (_name, user, expectAuthz, expectAllowed) => {
    const s = storage(store);
    authz.calls.length = 0;
    const create = s.create(undefined, clusterRole(), { user });
    if (expectAllowed) await expect(create).resolves.toBeDefined();
    else await expect(create).rejects.toMatchObject({ reason: "Forbidden" });
    expect(authz.calls.length > 0).toBe(expectAuthz);
    if (expectAuthz) expect(authz.calls[0]).toMatchObject({ verb: "escalate", resource: "clusterroles", namespace: "", apiVersion: "*" });

    if (!expectAllowed) await new GenericStore(store, config).create(undefined, clusterRole());
    authz.calls.length = 0;
    const update = s.update(undefined, "myrole", async () => clusterRole({ metadata: { name: "myrole", labels: { x: "y" } } }), { user });
    if (expectAllowed) await expect(update).resolves.toBeDefined();
    else await expect(update).rejects.toMatchObject({ reason: "Forbidden" });
    expect(authz.calls.length > 0).toBe(expectAuthz);
  });

  it("needs cluster-admin's rights for an aggregationRule, even with its own rules held", async () => {
    const s = storage(store);
    const aggregated = clusterRole({ aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: "b" } }] } });
    await expect(s.create(undefined, aggregated, { user: carol })).rejects.toThrow(
      'clusterroles.rbac.authorization.k8s.io "myrole" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    );
    await expect(s.create(undefined, aggregated, { user: alice })).resolves.toBeDefined();
    // Dropping the rule from a stored aggregated role needs the same rights.
    await expect(s.update(undefined, "myrole", async () => clusterRole(), { user: carol })).rejects.toThrow(
      /must have cluster-admin privileges/,
    );
    await expect(s.update(undefined, "myrole", async () => clusterRole(), { user: alice })).resolves.toBeDefined();
    await expect(
      s.update(undefined, "myrole", async () => clusterRole({ metadata: { name: "myrole", labels: { l: "1" } } }), { user: carol }),
    ).resolves.toBeDefined();
  });
});
