import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import type { ClusterRoleBinding, RoleBinding } from "@servicenet/api";
import { createStore, objectKey, type Store } from "../../../../../storage/index.ts";
import { DefaultRuleResolver } from "../../../../../registry/rbac/validation/rule.ts";
import { RBACInformers, SubjectIndex, subjectIndexKeys } from "./listers.ts";
import { RBACAuthorizer } from "./rbac.ts";
import { attributes } from "../../../../../authorization/authorizer/interfaces.ts";

const ref = (kind: string, name: string) => ({ apiGroup: "rbac.authorization.k8s.io", kind, name });

describe("subjectIndexKeys", () => {
  it("keys users, groups and service accounts by the user name they match", () => {
    expect(
      subjectIndexKeys(
        [
          { kind: "User", name: "alice" },
          { kind: "Group", name: "devs" },
          { kind: "ServiceAccount", name: "robot" },
          { kind: "ServiceAccount", name: "other", namespace: "kube-system" },
          { kind: "Widget", name: "x" },
        ],
        "ns1",
      ),
    ).toEqual(["u:alice", "g:devs", "u:system:serviceaccount:ns1:robot", "u:system:serviceaccount:kube-system:other"]);
    expect(subjectIndexKeys([{ kind: "ServiceAccount", name: "robot" }], "")).toEqual([]);
  });
});

describe("SubjectIndex", () => {
  it("finds only the bindings naming the user or its groups, and forgets deleted and updated subjects", () => {
    const idx = new SubjectIndex<RoleBinding>();
    const a: RoleBinding = {
      metadata: { name: "a", namespace: "ns" },
      roleRef: ref("Role", "r"),
      subjects: [{ kind: "User", name: "alice" }],
    };
    const b: RoleBinding = {
      metadata: { name: "b", namespace: "ns" },
      roleRef: ref("Role", "r"),
      subjects: [{ kind: "Group", name: "devs" }],
    };
    const c: RoleBinding = {
      metadata: { name: "c", namespace: "other" },
      roleRef: ref("Role", "r"),
      subjects: [{ kind: "User", name: "alice" }],
    };
    for (const x of [a, b, c]) idx.set(x);
    const alice = { name: "alice", uid: "", groups: ["devs"] };
    expect(idx.forUser("ns", alice).map((x) => x.metadata.name)).toEqual(["a", "b"]);
    idx.set({ ...a, subjects: [{ kind: "User", name: "bob" }] });
    idx.delete(b);
    expect(idx.forUser("ns", alice)).toEqual([]);
    expect(idx.forUser("other", alice).map((x) => x.metadata.name)).toEqual(["c"]);
  });
});

describe("RBACInformers", () => {
  let store: Store;
  let inf: RBACInformers | undefined;
  afterEach(async () => {
    inf?.stop();
    await store.close();
  });

  it("authorizes from the caches and follows binding changes", async () => {
    store = await createStore({ backend: "memory" });
    await store.create(objectKey("clusterroles", undefined, "view"), {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name: "view" },
      rules: [{ verbs: ["list"], apiGroups: [""], resources: ["services"] }],
    });
    inf = new RBACInformers(store);
    inf.start();
    await inf.waitForSync();
    const a = new RBACAuthorizer(new DefaultRuleResolver(inf, inf, inf, inf));
    const req = attributes({
      user: { name: "alice", uid: "", groups: [] },
      verb: "list",
      resource: "services",
      namespace: "default",
      resourceRequest: true,
    });
    expect(a.authorize(req).decision).toBe("NoOpinion");
    const rb: RoleBinding & { apiVersion: string; kind: string } = {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name: "alice-view", namespace: "default" },
      roleRef: ref("ClusterRole", "view"),
      subjects: [{ kind: "User", apiGroup: "rbac.authorization.k8s.io", name: "alice" }],
    };
    await store.create(objectKey("rolebindings", "default", "alice-view"), rb);
    await eventually(() => a.authorize(req).decision === "Allow", { timeoutMs: 2_000, intervalMs: 5 });
    expect(a.authorize(req).reason).toBe('RBAC: allowed by RoleBinding "alice-view/default" of ClusterRole "view" to User "alice"');
    const crb: ClusterRoleBinding & { apiVersion: string; kind: string } = {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name: "gone" },
      roleRef: ref("ClusterRole", "missing"),
      subjects: [{ kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: "devs" }],
    };
    await store.create(objectKey("clusterrolebindings", undefined, "gone"), crb);
    const bob = { ...req, user: { name: "bob", uid: "", groups: ["devs"] } };
    await eventually(() => a.authorize(bob).reason !== "", { timeoutMs: 2_000, intervalMs: 5 });
    expect(a.authorize(bob)).toEqual({ decision: "NoOpinion", reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found' });
    await store.delete(objectKey("rolebindings", "default", "alice-view"));
    await eventually(() => a.authorize(req).decision === "NoOpinion", { timeoutMs: 2_000, intervalMs: 5 });
  });
});
