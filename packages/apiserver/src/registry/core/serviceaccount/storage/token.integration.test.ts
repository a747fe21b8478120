/**
 * TokenRequest and service-account token authentication over HTTP, after
 * test/integration/auth/svcaccttoken_test.go TestServiceAccountTokenCreate: tokens bound to the
 * ServiceAccount, a Pod, a Secret or a Node authenticate until that object goes; the request's
 * checks (lifetime, bound object kind and uid, the Pod's service account); audiences; the
 * extended expiration of projected tokens; issuer discovery; and real kubectl 1.33's
 * `create token` and `--token`.
 */
import { createPublicKey, verify } from "node:crypto";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { kubeadmServiceAccountFlags } from "../../../../controlplane/apiserver.ts";
import { kubeconfigText } from "../../../../controlplane/kubeconfig.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "../../../../server/testing.ts";

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ns = "default";
const saPath = `/api/v1/namespaces/${ns}/serviceaccounts`;

const decodeClaims = (token: string): Body => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as Body;

describe("TokenRequest (TestServiceAccountTokenCreate)", () => {
  let s: TestServer;
  const create = async (path: string, body: Body): Promise<Body> => {
    const r = await s.send("POST", path, body);
    expect(r.status, r.text).toBe(201);
    return r.json() as Body;
  };
  const tokenFor = (sa: string, spec: Body = {}) =>
    s.send("POST", `${saPath}/${sa}/token`, { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec });
  const whoami = async (token: string) => {
    const r = await s.request("/apis/authentication.k8s.io/v1/selfsubjectreviews", {
      method: "POST",
      token,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" }),
    });
    return { status: r.status, user: r.status === 201 ? ((r.json() as Body)["status"]["userInfo"] as Body) : undefined };
  };
  const pod = (name: string, serviceAccountName: string, nodeName?: string) => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name },
    spec: { serviceAccountName, ...(nodeName ? { nodeName } : {}), containers: [{ name: "c", image: "busybox" }] },
  });

  beforeAll(async () => {
    s = await startTestServer();
    await create(saPath, { metadata: { name: "test-svcacct" } });
  });
  afterAll(() => s?.close());

  it("serves serviceaccounts/token in discovery as authentication.k8s.io/v1 TokenRequest, create only", async () => {
    const list = (await s.request("/api/v1")).json() as { resources: Body[] };
    expect(list.resources.find((r) => r["name"] === "serviceaccounts/token")).toEqual({
      name: "serviceaccounts/token",
      singularName: "",
      namespaced: true,
      group: "authentication.k8s.io",
      version: "v1",
      kind: "TokenRequest",
      verbs: ["create"],
    });
  });

  it("bound to service account", async () => {
    const r = await tokenFor("test-svcacct");
    expect(r.status, r.text).toBe(201);
    const tr = r.json() as Body;
    expect(tr["kind"]).toBe("TokenRequest");
    expect(tr["metadata"]).toMatchObject({ name: "test-svcacct", namespace: ns });
    expect(tr["spec"]).toEqual({ audiences: ["https://kubernetes.default.svc.cluster.local"], expirationSeconds: 3600 });
    const token = tr["status"]["token"] as string;
    const claims = decodeClaims(token);
    const sa = (await s.request(`${saPath}/test-svcacct`)).json() as Body;
    expect(claims).toMatchObject({
      iss: "https://kubernetes.default.svc.cluster.local",
      sub: "system:serviceaccount:default:test-svcacct",
      aud: ["https://kubernetes.default.svc.cluster.local"],
      "kubernetes.io": { namespace: ns, serviceaccount: { name: "test-svcacct", uid: sa["metadata"]["uid"] } },
    });
    expect(claims["exp"] - claims["iat"]).toBe(3600);
    expect(Date.parse(tr["status"]["expirationTimestamp"] as string) / 1000).toBe(claims["exp"]);
    expect(await whoami(token)).toEqual({
      status: 201,
      user: {
        username: "system:serviceaccount:default:test-svcacct",
        uid: sa["metadata"]["uid"],
        groups: ["system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"],
        extra: { "authentication.kubernetes.io/credential-id": [`JTI=${claims["jti"]}`] },
      },
    });
  });

  it("a deleted and recreated service account invalidates its tokens", async () => {
    await create(saPath, { metadata: { name: "short-lived" } });
    const token = ((await tokenFor("short-lived")).json() as Body)["status"]["token"] as string;
    expect((await whoami(token)).status).toBe(201);
    expect((await s.send("DELETE", `${saPath}/short-lived`)).status).toBe(200);
    expect((await whoami(token)).status).toBe(401);
    await create(saPath, { metadata: { name: "short-lived" } });
    expect((await whoami(token)).status).toBe(401);
  });

  it("bound to service account and pod", async () => {
    const missing = await tokenFor("test-svcacct", { boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "test-pod" } });
    expect(missing.status).toBe(404);
    expect((missing.json() as Body)["message"]).toBe('pods "test-pod" not found');
    await create(`/api/v1/nodes`, { metadata: { name: "test-node" } });
    const p = await create(`/api/v1/namespaces/${ns}/pods`, pod("test-pod", "test-svcacct", "test-node"));
    const node = (await s.request("/api/v1/nodes/test-node")).json() as Body;
    const r = await tokenFor("test-svcacct", {
      boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "test-pod", uid: p["metadata"]["uid"] },
    });
    expect(r.status, r.text).toBe(201);
    const token = (r.json() as Body)["status"]["token"] as string;
    expect(decodeClaims(token)["kubernetes.io"]).toMatchObject({
      pod: { name: "test-pod", uid: p["metadata"]["uid"] },
      node: { name: "test-node", uid: node["metadata"]["uid"] },
    });
    const who = await whoami(token);
    expect(who.user?.["extra"]).toMatchObject({
      "authentication.kubernetes.io/pod-name": ["test-pod"],
      "authentication.kubernetes.io/pod-uid": [p["metadata"]["uid"]],
      "authentication.kubernetes.io/node-name": ["test-node"],
      "authentication.kubernetes.io/node-uid": [node["metadata"]["uid"]],
    });
    expect((await s.send("DELETE", `/api/v1/namespaces/${ns}/pods/test-pod?gracePeriodSeconds=0`)).status).toBe(200);
    expect((await whoami(token)).status).toBe(401);
  });

  it("refuses a pod of another service account, another uid, and other kinds", async () => {
    const p = await create(`/api/v1/namespaces/${ns}/pods`, pod("other-pod", "default"));
    const wrongSA = await tokenFor("test-svcacct", { boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "other-pod" } });
    expect(wrongSA.status).toBe(400);
    expect((wrongSA.json() as Body)["message"]).toBe(
      'cannot bind token for serviceaccount "test-svcacct" to pod running with different serviceaccount name.',
    );
    await create(`/api/v1/namespaces/${ns}/pods`, pod("uid-pod", "test-svcacct"));
    const wrongUID = await tokenFor("test-svcacct", {
      boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "uid-pod", uid: p["metadata"]["uid"] },
    });
    expect(wrongUID.status).toBe(409);
    expect((wrongUID.json() as Body)["message"]).toBe(
      `Operation cannot be fulfilled on Pod "uid-pod": the UID in the bound object reference (${p["metadata"]["uid"]}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
    const kind = await tokenFor("test-svcacct", { boundObjectRef: { kind: "ConfigMap", apiVersion: "v1", name: "x" } });
    expect(kind.status).toBe(400);
    expect((kind.json() as Body)["message"]).toBe("cannot bind token to object of type /v1, Kind=ConfigMap");
  });

  it("bound to service account and secret", async () => {
    const sec = await create(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: "test-secret" } });
    const r = await tokenFor("test-svcacct", {
      boundObjectRef: { kind: "Secret", apiVersion: "v1", name: "test-secret", uid: sec["metadata"]["uid"] },
    });
    expect(r.status, r.text).toBe(201);
    const token = (r.json() as Body)["status"]["token"] as string;
    expect(decodeClaims(token)["kubernetes.io"]["secret"]).toEqual({ name: "test-secret", uid: sec["metadata"]["uid"] });
    expect((await whoami(token)).status).toBe(201);
    expect((await s.send("DELETE", `/api/v1/namespaces/${ns}/secrets/test-secret`)).status).toBe(200);
    expect((await whoami(token)).status).toBe(401);
  });

  it("bound to service account and node", async () => {
    const node = await create(`/api/v1/nodes`, { metadata: { name: "bound-node" } });
    const r = await tokenFor("test-svcacct", {
      boundObjectRef: { kind: "Node", apiVersion: "v1", name: "bound-node", uid: node["metadata"]["uid"] },
    });
    expect(r.status, r.text).toBe(201);
    const token = (r.json() as Body)["status"]["token"] as string;
    expect((await whoami(token)).user?.["extra"]).toMatchObject({ "authentication.kubernetes.io/node-name": ["bound-node"] });
    expect((await s.send("DELETE", `/api/v1/nodes/bound-node`)).status).toBe(200);
    expect((await whoami(token)).status).toBe(401);
  });

  it("refuses a lifetime under 10 minutes", async () => {
    const r = await tokenFor("test-svcacct", { expirationSeconds: 599 });
    expect(r.status).toBe(422);
    expect((r.json() as Body)["message"]).toBe(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    );
  });

  it("refuses a name that is not the service account's", async () => {
    const r = await s.send("POST", `${saPath}/test-svcacct/token`, { metadata: { name: "other" }, spec: {} });
    expect(r.status).toBe(422);
    expect((r.json() as Body)["message"]).toBe(
      'TokenRequest.authentication.k8s.io "test-svcacct" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified',
    );
  });

  it("a missing service account is 404", async () => {
    const r = await tokenFor("nobody");
    expect(r.status).toBe(404);
    expect((r.json() as Body)["message"]).toBe('serviceaccounts "nobody" not found');
  });

  it("extends a projected token of 1h7s to a year and warns after its hour", async () => {
    await create(`/api/v1/namespaces/${ns}/pods`, pod("projected-pod", "test-svcacct"));
    const r = await tokenFor("test-svcacct", {
      expirationSeconds: 3607,
      boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "projected-pod" },
    });
    const tr = r.json() as Body;
    const claims = decodeClaims(tr["status"]["token"] as string);
    expect(claims["exp"] - claims["iat"]).toBe(24 * 365 * 3600);
    expect(claims["kubernetes.io"]["warnafter"]).toBe(claims["iat"] + 3607);
    // The answer tells the lifetime asked for.
    expect(tr["spec"]["expirationSeconds"]).toBe(3607);
    // Not extended for another audience.
    const other = (
      (
        await tokenFor("test-svcacct", {
          expirationSeconds: 3607,
          audiences: ["vault"],
          boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "projected-pod" },
        })
      ).json() as Body
    )["status"]["token"] as string;
    expect(decodeClaims(other)["exp"] - decodeClaims(other)["iat"]).toBe(3607);
  });

  it("a token for another audience does not authenticate to the API, but a TokenReview for it does", async () => {
    const token = ((await tokenFor("test-svcacct", { audiences: ["vault"] })).json() as Body)["status"]["token"] as string;
    expect((await whoami(token)).status).toBe(401);
    const review = await create("/apis/authentication.k8s.io/v1/tokenreviews", { spec: { token, audiences: ["vault"] } });
    expect(review["status"]).toMatchObject({
      authenticated: true,
      audiences: ["vault"],
      user: { username: "system:serviceaccount:default:test-svcacct" },
    });
    const api = await create("/apis/authentication.k8s.io/v1/tokenreviews", { spec: { token } });
    expect(api["status"]).toEqual({
      user: {},
      error: 'token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]',
    });
  });

  it("serves the issuer discovery documents, whose key verifies the tokens", async () => {
    const config = await s.request("/.well-known/openid-configuration");
    expect(config.status).toBe(200);
    expect(config.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(config.json()).toEqual({
      issuer: "https://kubernetes.default.svc.cluster.local",
      jwks_uri: `https://127.0.0.1:${s.api.port}/openid/v1/jwks`,
      response_types_supported: ["id_token"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
    });
    const jwks = await s.request("/openid/v1/jwks");
    expect(jwks.headers.get("content-type")).toBe("application/jwk-set+json");
    const keys = (jwks.json() as { keys: Body[] }).keys;
    const token = ((await tokenFor("test-svcacct")).json() as Body)["status"]["token"] as string;
    const [h, p, sig] = token.split(".");
    const kid = (JSON.parse(Buffer.from(h!, "base64url").toString()) as Body)["kid"];
    const jwk = keys.find((k) => k["kid"] === kid)!;
    expect(jwk).toMatchObject({ use: "sig", kty: "RSA", alg: "RS256" });
    const key = createPublicKey({ key: jwk as never, format: "jwk" });
    expect(verify("sha256", Buffer.from(`${h}.${p}`), key, Buffer.from(sig!, "base64url"))).toBe(true);
    // system:service-account-issuer-discovery lets service accounts read them.
    const r = await s.request("/openid/v1/jwks", { token });
    expect(r.status).toBe(200);
  });

  it("answers another method on the discovery documents with go-restful's 405 as a Status", async () => {
    const r = await s.request("/.well-known/openid-configuration", { method: "POST", body: "{}" });
    expect(r.status).toBe(405);
    expect(r.json()).toMatchObject({ kind: "Status", reason: "MethodNotAllowed", code: 405 });
  });
});

describe("TokenRequest with --service-account-max-token-expiration", () => {
  let s: TestServer;
  beforeAll(async () => {
    const flags = kubeadmServiceAccountFlags(join(tmpdir(), "servicenet-test-pki"));
    s = await startTestServer({ serviceAccounts: { ...flags, maxExpirationSeconds: 7200 } });
    expect((await s.send("POST", saPath, { metadata: { name: "sa" } })).status).toBe(201);
  });
  afterAll(() => s?.close());

  it("shortens a longer request, with a warning", async () => {
    const r = await s.send("POST", `${saPath}/sa/token`, { spec: { expirationSeconds: 3 * 3600 } });
    expect(r.status, r.text).toBe(201);
    expect(r.headers.get("warning")).toBe('299 - "requested expiration of 10800 seconds shortened to 7200 seconds"');
    const tr = r.json() as Body;
    expect(tr["spec"]["expirationSeconds"]).toBe(7200);
    const claims = decodeClaims(tr["status"]["token"] as string);
    expect(claims["exp"] - claims["iat"]).toBe(7200);
  });
});

describe.skipIf(!haveKubectl())("kubectl 1.33 create token", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s?.close());

  it("issues a pod-bound token with a duration and an audience, and the API token authenticates", async () => {
    expect((await s.kubectl(["create", "serviceaccount", "op"])).code).toBe(0);
    const p = await s.kubectl(["run", "p", "--image=busybox", "--overrides", JSON.stringify({ spec: { serviceAccountName: "op" } })]);
    expect(p.code, p.stderr).toBe(0);
    const r = await s.kubectl([
      "create",
      "token",
      "op",
      "--duration=1h",
      "--audience=x",
      "--bound-object-kind",
      "Pod",
      "--bound-object-name",
      "p",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const claims = decodeClaims(r.stdout.trim());
    expect(claims).toMatchObject({ aud: ["x"], sub: "system:serviceaccount:default:op", "kubernetes.io": { pod: { name: "p" } } });
    expect(claims["exp"] - claims["iat"]).toBe(3600);
    const api = await s.kubectl(["create", "token", "op"]);
    expect(api.code, api.stderr).toBe(0);
    // A kubeconfig without the admin's client certificate, which would authenticate first.
    const anon = join(s.dir, "token.kubeconfig");
    writeFileSync(anon, kubeconfigText({ server: s.api.url, ...(s.api.caCert ? { caCert: s.api.caCert } : {}) }));
    const who = await s.kubectl(["--kubeconfig", anon, "--token", api.stdout.trim(), "auth", "whoami", "-o", "json"]);
    expect(who.code, who.stderr).toBe(0);
    expect((JSON.parse(who.stdout) as Body)["status"]["userInfo"]).toMatchObject({
      username: "system:serviceaccount:default:op",
      groups: ["system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"],
    });
    // The audience-x token is not for the API.
    const x = await s.kubectl(["--kubeconfig", anon, "--token", r.stdout.trim(), "auth", "whoami"]);
    expect(x.code).not.toBe(0);
    expect(x.stderr).toContain("Unauthorized");
  });

  it("refuses a duration under 10 minutes as kube-apiserver does", async () => {
    const r = await s.kubectl(["create", "token", "op", "--duration=5m"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("may not specify a duration less than 10 minutes");
  });
});
