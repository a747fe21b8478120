/**
 * The four RBAC kinds over HTTP: create, get, list, watch, update, patch, delete; validation
 * answers; defaulting; and escalation refused for a user without the rights (a static rule
 * resolver stands in for the RBAC authorizer's), allowed for system:masters.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserInfo } from "../../../authentication/user/user.ts";
import { startServer, type RunningServer } from "../../../server/server.ts";
import { createStore, type Store } from "../../../storage/index.ts";
import { recordingAuthorizer, staticRuleResolver } from "../testing.ts";

const g = "rbac.authorization.k8s.io";
const users = new Map<string, UserInfo>([
  ["admin-token", { name: "admin", uid: "1", groups: ["system:masters", "system:authenticated"] }],
  ["bob-token", { name: "bob", uid: "2", groups: ["system:authenticated"] }],
  ["pod-reader-token", { name: "reader", uid: "3", groups: ["system:authenticated"] }],
]);
type Obj = {
  kind?: string;
  metadata: { name: string; uid?: string; resourceVersion: string; labels?: Record<string, string> };
  [k: string]: unknown;
};

const kinds = [
  {
    path: `/apis/${g}/v1/namespaces/myns/roles`,
    kind: "Role",
    body: { metadata: { name: "r1" }, rules: [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }] },
  },
  {
    path: `/apis/${g}/v1/clusterroles`,
    kind: "ClusterRole",
    body: { metadata: { name: "cr1" }, rules: [{ verbs: ["get"], nonResourceURLs: ["/healthz"] }] },
  },
  {
    path: `/apis/${g}/v1/namespaces/myns/rolebindings`,
    kind: "RoleBinding",
    body: { metadata: { name: "rb1" }, roleRef: { kind: "Role", name: "r1" }, subjects: [{ kind: "User", name: "alice" }] },
  },
  {
    path: `/apis/${g}/v1/clusterrolebindings`,
    kind: "ClusterRoleBinding",
    body: {
      metadata: { name: "crb1" },
      roleRef: { kind: "ClusterRole", name: "cr1" },
      subjects: [{ kind: "ServiceAccount", name: "sa", namespace: "myns" }],
    },
  },
];

describe("RBAC kinds over HTTP", () => {
  let store: Store;
  let server: RunningServer;
  const req = async (token: string, path: string, method = "GET", body?: unknown, contentType = "application/json") => {
    const r = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": contentType },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await r.text();
    return { status: r.status, json: () => JSON.parse(text) as Obj & { message?: string; reason?: string; items?: Obj[] }, text };
  };
  beforeAll(async () => {
    store = await createStore({ backend: "memory" });
    server = await startServer({
      store,
      tokens: users,
      authorizer: recordingAuthorizer(() => "NoOpinion"),
      ruleResolver: staticRuleResolver({
        users: { reader: { myns: [{ verbs: ["get", "list"], apiGroups: [""], resources: ["pods"] }] } },
        roles: { "Role/myns/r1": [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }] },
      }),
    });
    expect((await req("admin-token", "/api/v1/namespaces", "POST", { metadata: { name: "myns" } })).status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
  });

  it.each(kinds)("$kind: create, get, list, watch, update, patch, delete", async ({ path, kind, body }) => {
    const created = await req("admin-token", path, "POST", body);
    expect(created.status, created.text).toBe(201);
    const obj = created.json();
    expect(obj).toMatchObject({ apiVersion: `${g}/v1`, kind, metadata: { name: body.metadata.name } });
    const one = `${path}/${body.metadata.name}`;
    expect((await req("admin-token", one)).json()).toMatchObject({ kind, metadata: { uid: obj.metadata.uid } });
    const list = (await req("admin-token", path)).json();
    expect(list.kind).toBe(`${kind}List`);
    expect(list.items!.map((i) => i.metadata.name)).toContain(body.metadata.name);

    const watching = req("admin-token", `${path}?watch=true&resourceVersion=${obj.metadata.resourceVersion}&timeoutSeconds=1`);
    const updated = await req("admin-token", one, "PUT", { ...obj, metadata: { ...obj.metadata, labels: { step: "put" } } });
    expect(updated.status, updated.text).toBe(200);
    const patched = await req("admin-token", one, "PATCH", { metadata: { labels: { step: "patch" } } }, "application/merge-patch+json");
    expect(patched.json().metadata.labels).toEqual({ step: "patch" });
    const deleted = await req("admin-token", one, "DELETE");
    expect(deleted.status).toBe(200);
    expect((await req("admin-token", one)).status).toBe(404);
    const events = (await watching).text
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => (JSON.parse(l) as { type: string }).type);
    expect(events).toEqual(["MODIFIED", "MODIFIED", "DELETED"]);
  });

  it("defaults roleRef.apiGroup and subject apiGroups", async () => {
    const rb = (
      await req("admin-token", `/apis/${g}/v1/namespaces/myns/rolebindings`, "POST", {
        metadata: { name: "defaulted" },
        roleRef: { kind: "ClusterRole", name: "view" },
        subjects: [
          { kind: "User", name: "u" },
          { kind: "Group", name: "grp" },
          { kind: "ServiceAccount", name: "sa" },
        ],
      })
    ).json();
    expect(rb["roleRef"]).toEqual({ apiGroup: g, kind: "ClusterRole", name: "view" });
    expect(rb["subjects"]).toEqual([
      { kind: "User", apiGroup: g, name: "u" },
      { kind: "Group", apiGroup: g, name: "grp" },
      { kind: "ServiceAccount", name: "sa" },
    ]);
  });

  it("answers validation errors with upstream's messages", async () => {
    const role = await req("admin-token", `/apis/${g}/v1/namespaces/myns/roles`, "POST", {
      metadata: { name: "bad" },
      rules: [{ verbs: ["get"], nonResourceURLs: ["/x"] }],
    });
    expect(role.status).toBe(422);
    expect(role.json().message).toBe(
      'Role.rbac.authorization.k8s.io "bad" is invalid: rules[0].nonResourceURLs: Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs',
    );
    const noRef = await req("admin-token", `/apis/${g}/v1/clusterrolebindings`, "POST", { metadata: { name: "noref" } });
    expect(noRef.status).toBe(422);
    expect(noRef.json().message).toBe(
      'ClusterRoleBinding.rbac.authorization.k8s.io "noref" is invalid: [roleRef.kind: Unsupported value: "": supported values: "ClusterRole", roleRef.name: Required value]',
    );
    const crb = { metadata: { name: "immutable" }, roleRef: { kind: "ClusterRole", name: "cr1" } };
    expect((await req("admin-token", `/apis/${g}/v1/clusterrolebindings`, "POST", crb)).status).toBe(201);
    const changed = await req(
      "admin-token",
      `/apis/${g}/v1/clusterrolebindings/immutable`,
      "PATCH",
      { roleRef: { name: "other" } },
      "application/merge-patch+json",
    );
    expect(changed.status).toBe(422);
    expect(changed.json().message).toBe(
      'ClusterRoleBinding.rbac.authorization.k8s.io "immutable" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"other"}: cannot change roleRef',
    );
  });

  it("answers Go type errors with the rbac/v1 struct names", async () => {
    const r = await req("admin-token", `/apis/${g}/v1/clusterrolebindings`, "POST", { metadata: { name: "typed" }, roleRef: { kind: 5 } });
    expect(r.status).toBe(400);
    expect(r.json().message).toBe(
      'ClusterRoleBinding in version "v1" cannot be handled as a ClusterRoleBinding: json: cannot unmarshal number into Go struct field RoleRef.roleRef.kind of type string',
    );
  });

  it("refuses a role or binding granting rights the user lacks, allows one within them", async () => {
    const grantPods = { metadata: { name: "pods" }, rules: [{ verbs: ["get", "delete"], apiGroups: [""], resources: ["pods"] }] };
    const bob = await req("bob-token", `/apis/${g}/v1/namespaces/myns/roles`, "POST", grantPods);
    expect(bob.status).toBe(403);
    expect(bob.json()).toMatchObject({
      reason: "Forbidden",
      message:
        'roles.rbac.authorization.k8s.io "pods" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get" "delete"]}',
      details: { name: "pods", group: g, kind: "roles" },
    });
    const reader = await req("pod-reader-token", `/apis/${g}/v1/namespaces/myns/roles`, "POST", grantPods);
    expect(reader.json().message).toContain('{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}');
    const within = { metadata: { name: "pods" }, rules: [{ verbs: ["list"], apiGroups: [""], resources: ["pods"] }] };
    expect((await req("pod-reader-token", `/apis/${g}/v1/namespaces/myns/roles`, "POST", within)).status).toBe(201);
    // Binding r1 (get pods): the reader holds it in myns, bob does not.
    const binding = { metadata: { name: "bind-r1" }, roleRef: { kind: "Role", name: "r1" }, subjects: [{ kind: "User", name: "carol" }] };
    await req("admin-token", `/apis/${g}/v1/namespaces/myns/roles`, "POST", kinds[0]!.body);
    expect((await req("bob-token", `/apis/${g}/v1/namespaces/myns/rolebindings`, "POST", binding)).status).toBe(403);
    expect((await req("pod-reader-token", `/apis/${g}/v1/namespaces/myns/rolebindings`, "POST", binding)).status).toBe(201);
  });
});
