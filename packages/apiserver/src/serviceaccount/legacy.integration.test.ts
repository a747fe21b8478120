/**
 * Secret-based service-account tokens over HTTP, after test/integration/auth/svcaccttoken_test.go's
 * legacy rows and test/integration/serviceaccount/service_account_test.go
 * TestServiceAccountTokenAuthentication: a token signed into a `kubernetes.io/service-account-token`
 * Secret (here by the test, as the controller-manager's tokens controller does) authenticates while
 * the Secret holds it and the ServiceAccount lives; its use is tracked on the Secret and audited.
 * Also the `issued-credential-id` audit annotation of a TokenRequest.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { privateKeyFromFile } from "@servicenet/client/util/keyutil";
import { JWTTokenGenerator, legacyClaims, legacyIssuer } from "@servicenet/component-base/serviceaccount";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubeadmServiceAccountFlags } from "../controlplane/apiserver.ts";
import { newPolicyRuleEvaluator } from "../audit/policy/checker.ts";
import { loadPolicyFromBytes } from "../audit/policy/reader.ts";
import { startTestServer, type TestServer } from "../server/testing.ts";

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Ev = { auditID: string; stage: string; annotations?: Record<string, string>; requestURI: string };

const ns = "default";
const saPath = `/api/v1/namespaces/${ns}/serviceaccounts`;
const secretsPath = `/api/v1/namespaces/${ns}/secrets`;

describe("legacy service-account tokens", () => {
  let s: TestServer;
  const events: Ev[] = [];
  const flags = kubeadmServiceAccountFlags(join(tmpdir(), "servicenet-test-pki"));
  const signer = new JWTTokenGenerator(legacyIssuer, privateKeyFromFile(flags.signingKeyFile));

  const create = async (path: string, body: Body): Promise<Body> => {
    const r = await s.send("POST", path, body);
    expect(r.status, r.text).toBe(201);
    return r.json() as Body;
  };
  const whoami = (token: string) =>
    s.request("/apis/authentication.k8s.io/v1/selfsubjectreviews", {
      method: "POST",
      token,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" }),
    });
  /** A ServiceAccount and its token Secret, populated as the tokens controller does. */
  const tokenSecret = async (sa: string, secret: string): Promise<{ token: string; sa: Body }> => {
    const acct = await create(saPath, { metadata: { name: sa } });
    const meta = acct["metadata"] as { name: string; uid: string };
    const c = legacyClaims({ namespace: ns, name: meta.name, uid: meta.uid }, secret);
    const token = signer.generateToken(c.public, c.private);
    await create(secretsPath, {
      metadata: { name: secret, annotations: { "kubernetes.io/service-account.name": sa, "kubernetes.io/service-account.uid": meta.uid } },
      type: "kubernetes.io/service-account-token",
      data: { token: Buffer.from(token).toString("base64") },
    });
    return { token, sa: acct };
  };

  beforeAll(async () => {
    s = await startTestServer({
      serviceAccounts: flags,
      audit: {
        evaluator: newPolicyRuleEvaluator(loadPolicyFromBytes("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n")),
        backend: { processEvents: (...e) => events.push(...(e as Ev[])), shutdown: () => undefined },
      },
    });
  });
  afterAll(() => s?.close());

  it("ValidateSecret: a service-account-token Secret needs the service-account name annotation", async () => {
    const r = await s.send("POST", secretsPath, { metadata: { name: "no-annotation" }, type: "kubernetes.io/service-account-token" });
    expect(r.status).toBe(422);
    expect((r.json() as Body)["message"]).toBe(
      'Secret "no-annotation" is invalid: metadata.annotations[kubernetes.io/service-account.name]: Required value',
    );
  });

  it("authenticates as the ServiceAccount, tracks the day of use on the Secret and audits the legacy token", async () => {
    const { token, sa } = await tokenSecret("legacy-sa", "legacy-sa-token");
    const r = await whoami(token);
    expect(r.status, r.text).toBe(201);
    expect((r.json() as Body)["status"]["userInfo"]).toEqual({
      username: "system:serviceaccount:default:legacy-sa",
      uid: sa["metadata"]["uid"],
      groups: ["system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"],
    });
    // A manually created Secret: no warning.
    expect(r.headers.get("warning")).toBeNull();
    const secret = (await s.request(`${secretsPath}/legacy-sa-token`)).json() as Body;
    expect(secret["metadata"]["labels"]).toEqual({ "kubernetes.io/legacy-token-last-used": new Date().toISOString().slice(0, 10) });
    const rv = secret["metadata"]["resourceVersion"] as string;
    // Once a day: the second use writes nothing.
    expect((await whoami(token)).status).toBe(201);
    expect(((await s.request(`${secretsPath}/legacy-sa-token`)).json() as Body)["metadata"]["resourceVersion"]).toBe(rv);
    const audited = events.find(
      (e) => e.stage === "ResponseComplete" && e.annotations?.["authentication.k8s.io/legacy-token"] !== undefined,
    );
    expect(audited?.annotations).toMatchObject({
      "authentication.k8s.io/legacy-token": "system:serviceaccount:default:legacy-sa",
      "authentication.k8s.io/legacy-token-manual-secret": "legacy-sa-token",
    });
  });

  it("refuses the token once the Secret holds another, is deleted, or the ServiceAccount is recreated", async () => {
    const { token } = await tokenSecret("gone-sa", "gone-sa-token");
    expect((await whoami(token)).status).toBe(201);
    // The ServiceAccount recreated: another uid.
    expect((await s.send("DELETE", `${saPath}/gone-sa`)).status).toBe(200);
    await create(saPath, { metadata: { name: "gone-sa" } });
    expect((await whoami(token)).status).toBe(401);
    const other = await tokenSecret("other-sa", "other-sa-token");
    expect((await s.send("DELETE", `${secretsPath}/other-sa-token`)).status).toBe(200);
    expect((await whoami(other.token)).status).toBe(401);
  });

  it("refuses a token whose Secret is labelled invalid", async () => {
    const { token } = await tokenSecret("invalid-sa", "invalid-sa-token");
    const patch = await s.request(`${secretsPath}/invalid-sa-token`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({ metadata: { labels: { "kubernetes.io/legacy-token-invalid-since": "2026-01-01" } } }),
    });
    expect(patch.status, patch.text).toBe(200);
    expect((await whoami(token)).status).toBe(401);
  });

  it("audits the credential a TokenRequest issued (issued-credential-id)", async () => {
    await create(saPath, { metadata: { name: "bound-sa" } });
    const r = await s.send("POST", `${saPath}/bound-sa/token`, { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: {} });
    expect(r.status, r.text).toBe(201);
    const token = (r.json() as Body)["status"]["token"] as string;
    const jti = (JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Body)["jti"] as string;
    const ev = events.find((e) => e.stage === "ResponseComplete" && e.requestURI.endsWith("/serviceaccounts/bound-sa/token"));
    expect(ev?.annotations?.["authentication.kubernetes.io/issued-credential-id"]).toBe(`JTI=${jti}`);
  });
});
