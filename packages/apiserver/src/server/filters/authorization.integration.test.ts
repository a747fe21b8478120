// The authorization filter, the bootstrap policy and the access reviews against a real server and
// real kubectl (1.33, and 1.27 for its older review requests): users from a token file, RBAC by default.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, findKubectl } from "@servicenet/testing";
import { startApiServer, type ApiServer } from "../../controlplane/apiserver.ts";
import { kubeconfigText } from "../../controlplane/kubeconfig.ts";

const kubectl133 = findKubectl("1.33", { warnAs: "authorization integration tests" });
const kubectl127 = findKubectl("1.27", { warnAs: "authorization integration tests (1.27)" });

describe.skipIf(kubectl133 === null)("authorization (RBAC) with real kubectl", () => {
  let api: ApiServer;
  let dir: string;
  const kubeconfig: Record<string, string> = {};
  const run = (user: string, args: string[], bin = kubectl133!): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        bin,
        ["--kubeconfig", kubeconfig[user]!, ...args],
        { timeout: 120_000, env: { ...process.env, HOME: dir, KUBECACHEDIR: join(dir, "cache", user) } },
        (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
      );
    });
  const fetchAs = async (user: string, path: string): Promise<{ status: number; stderr: string }> => {
    const r = await run(user, ["get", "--raw", path]);
    return { status: r.code === 0 ? 200 : /Forbidden/.test(r.stderr) ? 403 : /Unauthorized/.test(r.stderr) ? 401 : 0, stderr: r.stderr };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "servicenet-authz-"));
    const dataDir = join(dir, "data");
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(
      join(dataDir, "tokens.csv"),
      'admintoken,admin,admin,"system:masters"\nalicetoken,alice,alice-uid\nbobtoken,bob,bob-uid,"devs"\n',
    );
    api = await startApiServer({
      storage: { backend: "memory" },
      dataDir,
      pkiDir: join(tmpdir(), "servicenet-test-pki"),
      tls: true,
      port: 0,
    });
    for (const [user, token] of [
      ["admin", "admintoken"],
      ["alice", "alicetoken"],
      ["bob", "bobtoken"],
    ] as const) {
      kubeconfig[user] = join(dir, `${user}.kubeconfig`);
      writeFileSync(kubeconfig[user], kubeconfigText({ server: api.url, token, caCert: api.caCert! }));
    }
  });
  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("forbids a user without bindings with upstream's message, and lets the admin (system:masters) in", async () => {
    const r = await run("alice", ["get", "services"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error from server (Forbidden): services is forbidden: User "alice" cannot list resource "services" in API group "" in the namespace "default"\n',
    );
    const c = await run("alice", ["get", "servicecidrs"]);
    expect(c.stderr).toContain(
      'servicecidrs.networking.k8s.io is forbidden: User "alice" cannot list resource "servicecidrs" in API group "networking.k8s.io" at the cluster scope',
    );
    expect((await run("admin", ["get", "services"])).code).toBe(0);
  });

  it("lets authenticated users discover and read public info but not metrics", async () => {
    expect((await fetchAs("alice", "/version")).status).toBe(200);
    expect((await fetchAs("alice", "/apis")).status).toBe(200);
    const m = await run("alice", ["get", "--raw", "/metrics"]);
    expect(m.stderr).toContain('Error from server (Forbidden): forbidden: User "alice" cannot get path "/metrics"');
    expect((await fetchAs("admin", "/metrics")).status).toBe(200);
  });

  // view and edit get their rules from the aggregation controller (controller-manager), not running
  // here: the tests bind their aggregate-to-* parts, which hold the rules.
  it("a view RoleBinding allows list but not create; a group binding applies to its members", async () => {
    const rb = await run("admin", [
      "create",
      "rolebinding",
      "alice-view",
      "--clusterrole=system:aggregate-to-view",
      "--user=alice",
      "-n",
      "default",
    ]);
    expect(rb.code, rb.stderr).toBe(0);
    expect(
      (await run("admin", ["create", "clusterrolebinding", "devs-edit", "--clusterrole=system:aggregate-to-edit", "--group=devs"])).code,
    ).toBe(0);
    await eventually(async () => (await run("alice", ["get", "services"])).code === 0, { timeoutMs: 5_000, intervalMs: 50 });
    const create = await run("alice", ["create", "service", "clusterip", "web", "--tcp=80"]);
    expect(create.stderr).toContain(
      'services is forbidden: User "alice" cannot create resource "services" in API group "" in the namespace "default"',
    );
    await eventually(
      async () => (await run("bob", ["create", "service", "clusterip", "bobs", "--tcp=80", "-n", "kube-public"])).code === 0,
      {
        timeoutMs: 5_000,
        intervalMs: 50,
      },
    );
  });

  it("answers kubectl auth can-i from RBAC (a protobuf SelfSubjectAccessReview)", async () => {
    const yes = await run("alice", ["auth", "can-i", "list", "services"]);
    expect(yes.stdout, yes.stderr).toBe("yes\n");
    const no = await run("alice", ["auth", "can-i", "delete", "services"]);
    expect(no.stdout).toBe("no\n");
    expect(no.code).toBe(1);
    expect((await run("alice", ["auth", "can-i", "list", "services", "-n", "kube-system"])).stdout).toBe("no\n");
    expect((await run("admin", ["auth", "can-i", "create", "services", "-n", "kube-system"])).stdout).toBe("yes\n");
    expect((await run("alice", ["auth", "can-i", "get", "/version"])).stdout).toBe("yes\n");
  });

  it("lists the user's rules with kubectl auth can-i --list (SelfSubjectRulesReview)", async () => {
    const r = await run("alice", ["auth", "can-i", "--list", "-n", "default"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n/);
    expect(r.stdout).toMatch(/^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
    expect(r.stdout).toMatch(/^services\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(r.stdout).toMatch(/^\s+\[\/version\]\s+\[\]\s+\[get\]$/m);
    const other = await run("alice", ["auth", "can-i", "--list", "-n", "kube-system"]);
    expect(other.stdout).not.toMatch(/^services\s/m);
  });

  it.skipIf(kubectl127 === null)("kubectl 1.27's auth can-i and --list get the same answers", async () => {
    expect((await run("alice", ["auth", "can-i", "list", "services"], kubectl127!)).stdout).toBe("yes\n");
    expect((await run("alice", ["auth", "can-i", "create", "services"], kubectl127!)).stdout).toBe("no\n");
    expect((await run("alice", ["auth", "can-i", "--list"], kubectl127!)).stdout).toMatch(/^services\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
  });

  it("answers SubjectAccessReview and LocalSubjectAccessReview for another user", async () => {
    const sar = async (path: string, body: unknown) => {
      const f = join(dir, "sar.json");
      writeFileSync(f, JSON.stringify(body));
      const r = await run("admin", ["create", "--raw", path, "-f", f]);
      return r.code === 0 ? (JSON.parse(r.stdout) as { status: Record<string, unknown> }) : { status: { stderr: r.stderr } };
    };
    const spec = { user: "alice", resourceAttributes: { namespace: "default", verb: "list", resource: "services" } };
    const allowed = await sar("/apis/authorization.k8s.io/v1/subjectaccessreviews", {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SubjectAccessReview",
      spec,
    });
    expect(allowed.status).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "alice-view/default" of ClusterRole "system:aggregate-to-view" to User "alice"',
    });
    const local = await sar("/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews", {
      apiVersion: "authorization.k8s.io/v1",
      kind: "LocalSubjectAccessReview",
      metadata: { namespace: "default" },
      spec: { ...spec, resourceAttributes: { ...spec.resourceAttributes, verb: "delete" } },
    });
    expect(local.status).toEqual({ allowed: false });
    const bad = await sar("/apis/authorization.k8s.io/v1/subjectaccessreviews", {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SubjectAccessReview",
      spec: { user: "alice" },
    });
    expect(String(bad.status["stderr"])).toContain(
      "spec.resourceAttributes: Invalid value: (*authorization.NonResourceAttributes)(nil): exactly one of nonResourceAttributes or resourceAttributes must be specified",
    );
  });
});
