/**
 * Real kubectl 1.33's RBAC create commands against an in-process server: they send protobuf
 * bodies (server/protobuf decodes the rbac/v1 messages), and `get` reads the objects back.
 * Skips (with a warning) when the binary is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "../../../server/testing.ts";

const g = "rbac.authorization.k8s.io";

describe.skipIf(!haveKubectl())("kubectl 1.33 create role|clusterrole|rolebinding|clusterrolebinding", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });
  const getJSON = async (args: string[]) => {
    const r = await s.kubectl(["get", ...args, "-o", "json"]);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };

  it("creates a Role", async () => {
    const r = await s.kubectl([
      "create",
      "role",
      "pod-reader",
      "--verb=get",
      "--verb=list",
      "--resource=pods",
      "--resource=endpointslices.discovery.k8s.io",
      "--resource-name=a",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("role.rbac.authorization.k8s.io/pod-reader created\n");
    expect((await getJSON(["role", "pod-reader"]))["rules"]).toEqual([
      { apiGroups: [""], resources: ["pods"], resourceNames: ["a"], verbs: ["get", "list"] },
      { apiGroups: ["discovery.k8s.io"], resources: ["endpointslices"], resourceNames: ["a"], verbs: ["get", "list"] },
    ]);
  });

  it("creates a ClusterRole with non-resource URLs and one with an aggregation rule", async () => {
    const r = await s.kubectl([
      "create",
      "clusterrole",
      "health",
      "--verb=get",
      "--non-resource-url=/healthz",
      "--non-resource-url=/livez",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect((await getJSON(["clusterrole", "health"]))["rules"]).toEqual([{ nonResourceURLs: ["/healthz", "/livez"], verbs: ["get"] }]);
    const a = await s.kubectl(["create", "clusterrole", "monitoring", "--aggregation-rule=rbac.example.com/aggregate-to-monitoring=true"]);
    expect(a.code, a.stderr).toBe(0);
    expect((await getJSON(["clusterrole", "monitoring"]))["aggregationRule"]).toEqual({
      clusterRoleSelectors: [{ matchLabels: { "rbac.example.com/aggregate-to-monitoring": "true" } }],
    });
  });

  it("creates a RoleBinding and a ClusterRoleBinding with users, groups and service accounts", async () => {
    const rb = await s.kubectl([
      "create",
      "rolebinding",
      "read-pods",
      "--role=pod-reader",
      "--user=alice",
      "--group=devs",
      "--serviceaccount=default:robot",
    ]);
    expect(rb.code, rb.stderr).toBe(0);
    const got = await getJSON(["rolebinding", "read-pods"]);
    expect(got["roleRef"]).toEqual({ apiGroup: g, kind: "Role", name: "pod-reader" });
    expect(got["subjects"]).toEqual([
      { apiGroup: g, kind: "User", name: "alice" },
      { apiGroup: g, kind: "Group", name: "devs" },
      { kind: "ServiceAccount", name: "robot", namespace: "default" },
    ]);
    const crb = await s.kubectl(["create", "clusterrolebinding", "health-all", "--clusterrole=health", "--group=system:authenticated"]);
    expect(crb.code, crb.stderr).toBe(0);
    expect(crb.stdout).toBe("clusterrolebinding.rbac.authorization.k8s.io/health-all created\n");
    expect((await getJSON(["clusterrolebinding", "health-all"]))["roleRef"]).toEqual({ apiGroup: g, kind: "ClusterRole", name: "health" });
  });

  it("shows validation errors of a typed create as kubectl prints them", async () => {
    const r = await s.kubectl(["create", "clusterrolebinding", "bad", "--clusterrole=health", "--serviceaccount=robot"]);
    expect(r.code).not.toBe(0);
    // kubectl itself checks the namespace:name form before sending.
    expect(r.stderr).toContain("serviceaccount must be <namespace>:<name>");
    const sa = await s.kubectl(["create", "rolebinding", "bad-sa", "--clusterrole=view", "--serviceaccount=default:Bad_Name"]);
    expect(sa.code).not.toBe(0);
    expect(sa.stderr).toContain(
      'error: failed to create rolebinding: RoleBinding.rbac.authorization.k8s.io "bad-sa" is invalid: subjects[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain',
    );
  });

  it("explains them from the published OpenAPI", async () => {
    const r = await s.kubectl(["explain", "rolebinding.roleRef"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("FIELD: roleRef <RoleRef>");
    expect(r.stdout).toMatch(/name\t<string> -required-\n\s+Name is the name of resource being referenced/);
  });

  it("lists them with get", async () => {
    const r = await s.kubectl(["get", "roles,rolebindings"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^role\.rbac\.authorization\.k8s\.io\/pod-reader\s+\d{4}-\d\d-\d\dT/m);
    expect(r.stdout).toMatch(/^rolebinding\.rbac\.authorization\.k8s\.io\/read-pods\s+Role\/pod-reader\s+\d+s/m);
  });
});
