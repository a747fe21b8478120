/**
 * Issue #21 end to end: `npm start` (scripts/up.mjs: apiserver, controller-manager, kube-proxy) and
 * real kubectl 1.33 with users from a token file and from client certificates signed by the
 * cluster CA. RBAC refuses with upstream's messages, bindings to users and groups grant what their
 * roles hold, escalation is refused, impersonation is the admin's only, `auth can-i` (single and
 * --list) and `auth whoami` answer, and the components run under their own identities (the
 * controllers as their service accounts) with no permission error in their logs.
 */
import { execFile, execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findKubectl } from "@servicenet/testing";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientsFor, createPod, createService, slicesOf } from "../controllers/objects.ts";
import { startUpCluster, type UpCluster } from "../up/cluster.ts";

const kubectl133 = findKubectl("1.33", { warnAs: "RBAC e2e (real kubectl)" });

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const tokens = `admin-token,admin,admin,"system:masters"
alice-token,alice,alice-uid,"devs"
bob-token,bob,bob-uid
`;

describe.skipIf(kubectl133 === null)("RBAC with real kubectl 1.33 against npm start", () => {
  let cluster: UpCluster;
  let work: string;
  let dataDir: string;
  const kubeconfigs: Record<string, string> = {};

  /** kubectl with one of the kubeconfigs; never rejects. */
  const k = (who: string, args: readonly string[]): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        kubectl133!,
        ["--kubeconfig", kubeconfigs[who]!, ...args],
        { timeout: 20_000, env: { ...process.env, HOME: work, KUBECACHEDIR: join(work, `cache-${who}`) } },
        (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
      );
    });
  const ok = async (who: string, args: readonly string[]): Promise<string> => {
    const r = await k(who, args);
    expect(r.code, `${who}: kubectl ${args.join(" ")}\n${r.stderr}`).toBe(0);
    return r.stdout;
  };

  /** A kubeconfig like the admin's with other credentials. */
  const writeKubeconfig = (name: string, user: Record<string, string>): void => {
    const admin = readFileSync(join(dataDir, "kubeconfig"), "utf8");
    const server = /server: (\S+)/.exec(admin)![1]!;
    const ca = /certificate-authority-data: (\S+)/.exec(admin)![1]!;
    const lines = Object.entries(user).map(([k, v]) => `      ${k}: ${v}`);
    const text = `apiVersion: v1
kind: Config
clusters:
  - name: c
    cluster:
      server: ${server}
      certificate-authority-data: ${ca}
users:
  - name: u
    user:
${lines.join("\n")}
contexts:
  - name: c
    context: {cluster: c, user: u, namespace: default}
current-context: c
`;
    kubeconfigs[name] = join(work, `${name}.kubeconfig`);
    writeFileSync(kubeconfigs[name], text, { mode: 0o600 });
  };

  /** A client certificate signed by the cluster CA (CN = user, O = groups), in files. */
  const certUser = (name: string, cn: string, orgs: string[]): void => {
    const pki = join(dataDir, "pki");
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const key = join(work, `${name}.key`);
    writeFileSync(key, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
    writeFileSync(join(work, `${name}.ext`), "extendedKeyUsage=clientAuth\n");
    const subj = `${orgs.map((o) => `/O=${o}`).join("")}/CN=${cn}`;
    execFileSync("openssl", ["req", "-new", "-key", key, "-subj", subj, "-out", join(work, `${name}.csr`)], { stdio: "ignore" });
    execFileSync(
      "openssl",
      [
        "x509",
        "-req",
        "-in",
        join(work, `${name}.csr`),
        "-CA",
        join(pki, "ca.crt"),
        "-CAkey",
        join(pki, "ca.key"),
        "-CAcreateserial",
        "-days",
        "1",
      ].concat(["-extfile", join(work, `${name}.ext`), "-out", join(work, `${name}.crt`)]),
      { stdio: "ignore" },
    );
    writeKubeconfig(name, { "client-certificate": join(work, `${name}.crt`), "client-key": key });
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "rbac-e2e-"));
    dataDir = join(work, "data");
    mkdirSync(dataDir, { mode: 0o700 });
    // The users' tokens; servicenet up adds the controller identities' tokens to the file.
    writeFileSync(join(dataDir, "tokens.csv"), tokens, { mode: 0o600 });
    // -v 3: the apiserver's request lines (who did what) are part of what this test checks.
    cluster = await startUpCluster(["--data-dir", dataDir, "-v", "3"], 60_000);
    kubeconfigs["admin"] = join(dataDir, "kubeconfig");
    kubeconfigs["controller-manager"] = join(dataDir, "controller-manager.kubeconfig");
    kubeconfigs["kube-proxy"] = join(dataDir, "kube-proxy.kubeconfig");
    writeKubeconfig("alice", { token: "alice-token" });
    writeKubeconfig("bob", { token: "bob-token" });
    certUser("carol", "carol", ["qa"]);
    certUser("dave", "dave", ["qa", "ops"]);
    await ok("admin", ["create", "namespace", "team"]);
  }, 90_000);
  afterAll(async () => {
    await cluster?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("knows who is who: whoami for the admin certificate, token users and certificate users", async () => {
    const whoami = async (who: string) => JSON.parse(await ok(who, ["auth", "whoami", "-o", "json"])) as { status: { userInfo: unknown } };
    expect((await whoami("admin")).status.userInfo).toMatchObject({
      username: "kubernetes-admin",
      groups: ["system:masters", "system:authenticated"],
      // x509.go CommonNameUserConversion names the certificate by its SHA-256 fingerprint
      extra: { "authentication.kubernetes.io/credential-id": [expect.stringMatching(/^X509SHA256=[0-9a-f]{64}$/)] },
    });
    expect((await whoami("alice")).status.userInfo).toMatchObject({
      username: "alice",
      uid: "alice-uid",
      groups: ["devs", "system:authenticated"],
    });
    expect((await whoami("dave")).status.userInfo).toMatchObject({ username: "dave", groups: ["qa", "ops", "system:authenticated"] });
  });

  it("forbids what no binding grants, with upstream's message", async () => {
    const r = await k("alice", ["get", "services"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'Error from server (Forbidden): services is forbidden: User "alice" cannot list resource "services" in API group "" in the namespace "default"',
    );
    const cluster = await k("carol", ["get", "nodes"]);
    expect(cluster.stderr).toContain('nodes is forbidden: User "carol" cannot list resource "nodes" in API group "" at the cluster scope');
  });

  it("a view binding allows list but not create", async () => {
    await ok("admin", ["create", "rolebinding", "alice-view", "--clusterrole=view", "--user=alice", "-n", "default"]);
    await eventually(async () => (await k("alice", ["get", "services"])).code === 0, { timeoutMs: 10_000 });
    expect(await ok("alice", ["get", "services"])).toMatch(/^kubernetes\s+ClusterIP/m);
    const r = await k("alice", ["create", "service", "clusterip", "nope", "--tcp=80"]);
    expect(r.stderr).toBe(
      'error: failed to create ClusterIP service: services is forbidden: User "alice" cannot create resource "services" in API group "" in the namespace "default"\n',
    );
    // A RoleBinding grants in its namespace only.
    expect((await k("alice", ["get", "services", "-n", "team"])).stderr).toContain('in the namespace "team"');
  });

  it("group bindings grant every member: a certificate's O and a token file's group", async () => {
    await ok("admin", ["create", "rolebinding", "qa-edit", "--clusterrole=edit", "--group=qa", "-n", "team"]);
    await eventually(async () => (await k("carol", ["get", "services", "-n", "team"])).code === 0, { timeoutMs: 10_000 });
    expect(await ok("carol", ["create", "service", "clusterip", "by-carol", "--tcp=80", "-n", "team"])).toBe("service/by-carol created\n");
    expect(await ok("dave", ["delete", "service", "by-carol", "-n", "team"])).toBe('service "by-carol" deleted\n');
    await ok("admin", ["create", "clusterrolebinding", "devs-view", "--clusterrole=view", "--group=devs"]);
    await eventually(async () => (await k("alice", ["get", "services", "-n", "team"])).code === 0, { timeoutMs: 10_000 });
  });

  it("refuses escalation: an admin of a namespace cannot grant cluster-admin", async () => {
    await ok("admin", ["create", "rolebinding", "bob-admin", "--clusterrole=admin", "--user=bob", "-n", "team"]);
    await eventually(async () => (await k("bob", ["get", "rolebindings", "-n", "team"])).code === 0, { timeoutMs: 10_000 });
    // What bob holds he may grant ...
    expect(await ok("bob", ["create", "rolebinding", "alice-edit", "--clusterrole=edit", "--user=alice", "-n", "team"])).toContain(
      "created",
    );
    // ... but not more.
    const r = await k("bob", ["create", "rolebinding", "bob-root", "--clusterrole=cluster-admin", "--user=bob", "-n", "team"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('rolebindings.rbac.authorization.k8s.io "bob-root" is forbidden:');
    const role = await k("bob", ["create", "role", "svc-reader", "--verb=get", "--resource=services", "-n", "default"]);
    expect(role.stderr).toContain('roles.rbac.authorization.k8s.io is forbidden: User "bob" cannot create resource "roles"');
  });

  it("lets the admin impersonate and refuses it to others", async () => {
    expect(await ok("admin", ["get", "services", "--as", "alice"])).toMatch(/^kubernetes\s+/m);
    const asAlice = await k("admin", ["create", "service", "clusterip", "x", "--tcp=80", "--as", "alice"]);
    expect(asAlice.stderr).toContain('services is forbidden: User "alice" cannot create resource "services"');
    const groups = JSON.parse(await ok("admin", ["auth", "whoami", "-o", "json", "--as", "erin", "--as-group", "qa"])) as {
      status: { userInfo: unknown };
    };
    expect(groups.status.userInfo).toMatchObject({ username: "erin", groups: ["qa", "system:authenticated"] });
    const r = await k("alice", ["get", "services", "--as", "bob"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'Error from server (Forbidden): users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    // The user is checked first, then each group (impersonation.go's order).
    const g = await k("bob", ["get", "services", "-n", "team", "--as", "bob", "--as-group", "system:masters"]);
    expect(g.stderr).toContain(
      'users "bob" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
  });

  it("answers auth can-i, single and --list", async () => {
    expect((await k("alice", ["auth", "can-i", "list", "services"])).stdout).toBe("yes\n");
    const no = await k("alice", ["auth", "can-i", "create", "services"]);
    expect(no.stdout).toBe("no\n");
    expect(no.code).toBe(1);
    // An impersonated user has only the groups asked for (and system:authenticated), not its certificate's.
    expect((await k("admin", ["auth", "can-i", "create", "services", "--as", "carol", "-n", "team"])).stdout).toBe("no\n");
    expect((await k("admin", ["auth", "can-i", "create", "services", "--as", "carol", "--as-group", "qa", "-n", "team"])).stdout).toBe(
      "yes\n",
    );
    expect((await k("carol", ["auth", "can-i", "create", "services", "-n", "team"])).stdout).toBe("yes\n");
    expect((await k("carol", ["auth", "can-i", "create", "services", "-n", "default"])).stdout).toBe("no\n");
    expect((await k("admin", ["auth", "can-i", "*", "*"])).stdout).toBe("yes\n");
    const list = await ok("alice", ["auth", "can-i", "--list", "-n", "default"]);
    expect(list).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
    expect(list).toMatch(/^services\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(list).toMatch(/^selfsubjectreviews\.authentication\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
    expect(list).not.toMatch(/^services\s+\[\]\s+\[\]\s+\[.*create/m);
  });

  it("runs the controller-manager and kube-proxy under their own identities, without permission errors", async () => {
    const c = clientsFor(cluster.kubeConfig);
    await createService(c, "identity-check", { ipFamilyPolicy: "SingleStack" });
    await createPod(c, "identity-check", 0, 7);
    expect(
      await eventually(async () => (await slicesOf(c, "identity-check")).some((s) => s.endpoints.length === 1), { timeoutMs: 30_000 }),
    ).toBe(true);
    const whoami = async (who: string) =>
      (JSON.parse(await ok(who, ["auth", "whoami", "-o", "json"])) as { status: { userInfo: { username: string } } }).status.userInfo
        .username;
    expect(await whoami("controller-manager")).toBe("system:kube-controller-manager");
    expect(await whoami("kube-proxy")).toBe("system:kube-proxy");
    // The request log says who wrote what: the slice by the endpointslice controller's service account.
    const requests = cluster
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{") && l.includes('"user"'))
      .map((l) => JSON.parse(l) as { user?: { username: string }; auditVerb?: string; objectRef?: { resource: string } });
    const writers = (resource: string) =>
      new Set(requests.filter((r) => r.objectRef?.resource === resource && r.auditVerb === "create").map((r) => r.user?.username));
    await eventually(() => writers("endpointslices").has("system:serviceaccount:kube-system:endpointslice-controller"), {
      timeoutMs: 10_000,
    });
    expect(writers("endpoints")).toContain("system:serviceaccount:kube-system:endpoint-controller");
    // Watches are still open (a request is logged when it ends): the informers' lists show who reads.
    const readers = new Set(
      requests.filter((r) => r.objectRef?.resource === "services" && r.auditVerb === "list").map((r) => r.user?.username),
    );
    expect(readers).toContain("system:kube-proxy");
    expect(readers).toContain("system:kube-controller-manager");
    const componentLines = cluster
      .output()
      .split("\n")
      .filter((l) => l.startsWith("[controller-manager]") || l.startsWith("[kube-proxy]"));
    expect(componentLines.filter((l) => /forbidden|Forbidden|Unauthorized/.test(l))).toEqual([]);
    const refused = requests.filter(
      (r) =>
        /^system:(kube-|serviceaccount:kube-system:)/.test(r.user?.username ?? "") &&
        [401, 403].includes((r as { code?: number }).code ?? 0),
    );
    expect(refused).toEqual([]);
  });
});
