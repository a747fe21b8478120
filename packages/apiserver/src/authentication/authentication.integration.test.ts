/**
 * Authentication end to end with real kubectl 1.33: the admin kubeconfig's client certificate, a
 * token-file user, impersonation with --as/--as-group, a certificate of a foreign CA and a wrong
 * token (401), and the audit fields of the request log.
 */
import { jsonLogger } from "@servicenet/component-base/logs";
import { X509Certificate, generateKeyPairSync } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { kubeconfigText } from "../controlplane/kubeconfig.ts";
import { haveKubectl, startTestServer, type TestServer } from "../server/testing.ts";

interface Whoami {
  status: { userInfo: { username: string; groups?: string[]; uid?: string; extra?: Record<string, string[]> } };
}

/** The SHA-256 fingerprint of the kubeconfig's client certificate, as node's X509Certificate computes it. */
function clientCertFingerprint(kubeconfigPath: string): string {
  const kc = parse(readFileSync(kubeconfigPath, "utf8")) as { users: { user: { "client-certificate-data": string } }[] };
  const pem = Buffer.from(kc.users[0]?.user["client-certificate-data"] ?? "", "base64");
  return new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase();
}

/** A self-signed client certificate of a CA the server does not trust. */
function foreignCert(dir: string): { cert: string; key: string } {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  writeFileSync(join(dir, "foreign.key"), privateKey.export({ type: "pkcs8", format: "pem" }));
  execFileSync(
    "openssl",
    ["req", "-x509", "-new", "-key", "foreign.key", "-subj", "/O=system:masters/CN=mallory", "-days", "1", "-out", "foreign.crt"],
    {
      cwd: dir,
      stdio: "ignore",
    },
  );
  return {
    cert: execFileSync("cat", [join(dir, "foreign.crt")]).toString(),
    key: execFileSync("cat", [join(dir, "foreign.key")]).toString(),
  };
}

describe.skipIf(!haveKubectl())("authentication with real kubectl 1.33", () => {
  let s: TestServer;
  let dir: string;
  const logs: string[] = [];
  const kubeconfigFor = (name: string, user: { token?: string; clientCert?: string; clientKey?: string }): string => {
    const path = join(dir, `${name}.kubeconfig`);
    writeFileSync(path, kubeconfigText({ server: s.api.url, ...(s.api.caCert ? { caCert: s.api.caCert } : {}), ...user }));
    return path;
  };
  const whoami = async (args: string[] = []): Promise<Whoami["status"]["userInfo"]> => {
    const r = await s.kubectl(["auth", "whoami", "-o", "json", ...args]);
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as Whoami).status.userInfo;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "authn-test-"));
    const tokenFile = join(dir, "tokens.csv");
    writeFileSync(tokenFile, 'admin-token,admin,admin,"system:masters"\nalice-token,alice,alice-uid,"devs,qa"\nbob-token,bob,bob-uid\n');
    s = await startTestServer({ tokenAuthFile: tokenFile, logger: jsonLogger("apiserver", { verbosity: 3, write: (l) => logs.push(l) }) });
  });
  afterAll(async () => {
    await s?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("authenticates the admin kubeconfig's client certificate as kubernetes-admin in system:masters, naming the certificate in the credential-id extra", async () => {
    expect(await whoami()).toEqual({
      username: "kubernetes-admin",
      groups: ["system:masters", "system:authenticated"],
      extra: { "authentication.kubernetes.io/credential-id": [`X509SHA256=${clientCertFingerprint(s.kubeconfigPath)}`] },
    });
  });

  it("authenticates a token-file user with its uid and quoted groups", async () => {
    const kc = kubeconfigFor("alice", { token: "alice-token" });
    expect(await whoami(["--kubeconfig", kc])).toEqual({
      username: "alice",
      uid: "alice-uid",
      groups: ["devs", "qa", "system:authenticated"],
    });
    const bob = kubeconfigFor("bob", { token: "bob-token" });
    expect(await whoami(["--kubeconfig", bob])).toEqual({ username: "bob", uid: "bob-uid", groups: ["system:authenticated"] });
  });

  it("switches user with --as and --as-group (impersonation)", async () => {
    expect(await whoami(["--as", "carol", "--as-group", "ops", "--as-group", "devs"])).toEqual({
      username: "carol",
      groups: ["ops", "devs", "system:authenticated"],
    });
    expect(await whoami(["--as", "system:serviceaccount:kube-system:builder"])).toEqual({
      username: "system:serviceaccount:kube-system:builder",
      groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
    });
    const line = logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => (l["impersonatedUser"] as { username?: string })?.username === "carol");
    expect(line).toMatchObject({
      user: { username: "kubernetes-admin", groups: ["system:masters", "system:authenticated"] },
      impersonatedUser: { username: "carol", groups: ["ops", "devs", "system:authenticated"] },
      auditVerb: "create",
      objectRef: { resource: "selfsubjectreviews", apiGroup: "authentication.k8s.io", apiVersion: "v1" },
      responseStatus: { code: 201 },
    });
  });

  it("refuses a certificate of a foreign CA and a wrong token with 401, never as anonymous", async () => {
    const foreign = foreignCert(dir);
    const r = await s.kubectl([
      "get",
      "svc",
      "--kubeconfig",
      kubeconfigFor("mallory", { clientCert: foreign.cert, clientKey: foreign.key }),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("error: You must be logged in to the server (the server has asked for the client to provide credentials)");
    const wrong = await s.kubectl(["get", "svc", "--kubeconfig", kubeconfigFor("wrong", { token: "nope" })]);
    expect(wrong.stderr).toContain(
      "error: You must be logged in to the server (the server has asked for the client to provide credentials)",
    );
    expect((await s.request("/version", { token: "nope" })).status).toBe(401);
  });

  it("takes a request without credentials as system:anonymous in system:unauthenticated, whom RBAC refuses", async () => {
    const r = await s.request("/api/v1/namespaces/default/services", { token: null });
    expect(r.status).toBe(403);
    expect(r.json()).toMatchObject({
      reason: "Forbidden",
      message: 'services is forbidden: User "system:anonymous" cannot list resource "services" in API group "" in the namespace "default"',
    });
    // system:public-info-viewer: system:unauthenticated may read /version.
    expect((await s.request("/version", { token: null })).status).toBe(200);
    const line = logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l["URI"] === "/api/v1/namespaces/default/services" && l["resp"] === 403);
    expect(line).toMatchObject({
      user: { username: "system:anonymous", groups: ["system:unauthenticated"] },
      objectRef: { resource: "services", namespace: "default" },
    });
  });

  it("refuses impersonation to a user without the impersonate verb, with upstream's message", async () => {
    const r = await s.request("/api/v1/namespaces/default/services", { token: "alice-token", headers: { "Impersonate-User": "bob" } });
    expect(r.status).toBe(403);
    expect(r.json()).toMatchObject({
      reason: "Forbidden",
      message: 'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
      details: { name: "bob", kind: "users" },
    });
    // kubectl's discovery client reads that 403 as an unstructured error, as against kube-apiserver.
    const k = await s.kubectl(["--kubeconfig", kubeconfigFor("alice2", { token: "alice-token" }), "get", "svc", "--as", "bob"]);
    expect(k.code).toBe(1);
    expect(k.stderr).toContain("Error from server (Forbidden): unknown");
  });

  it("with --anonymous-auth=false answers a request without credentials with 401", async () => {
    const t = await startTestServer({ anonymousAuth: false });
    try {
      expect((await t.request("/version", { token: null })).status).toBe(401);
      expect((await t.request("/version")).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
