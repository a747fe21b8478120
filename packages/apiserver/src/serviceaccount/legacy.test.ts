import { generateKeyPairSync } from "node:crypto";
import { JWTTokenGenerator, legacyClaims, legacyIssuer } from "@servicenet/component-base/serviceaccount";
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../storage/index.ts";
import type { ServiceAccountTokenGetter } from "./claims.ts";
import { JWTTokenAuthenticator } from "./jwt-authenticator.ts";
import { LegacyValidator } from "./legacy.ts";

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const otherRSA = generateKeyPairSync("rsa", { modulusLength: 2048 });
const now = new Date("2026-03-01T12:00:00Z");

const serviceAccount = (over: Partial<KubeObject["metadata"]> = {}, secrets: string[] = []): KubeObject => ({
  metadata: { name: "my-service-account", namespace: "test", uid: "12345", ...over },
  ...(secrets.length > 0 ? { secrets: secrets.map((name) => ({ name })) } : {}),
});
const legacyToken = (key = rsa.privateKey, sa = serviceAccount(), secretName = "my-secret"): string => {
  const c = legacyClaims({ namespace: "test", name: sa.metadata.name ?? "", uid: sa.metadata.uid ?? "" }, secretName);
  return new JWTTokenGenerator(legacyIssuer, key).generateToken(c.public, c.private);
};
const secretFor = (token: string, over: Partial<KubeObject["metadata"]> = {}): KubeObject => ({
  metadata: { name: "my-secret", namespace: "test", uid: "s-uid", ...over },
  type: "kubernetes.io/service-account-token",
  data: { token: Buffer.from(token).toString("base64") },
});

function setup(objs: { sa?: KubeObject; secret?: KubeObject }) {
  const patches: { name: string; uid: string; labels: Record<string, string> }[] = [];
  const getter: ServiceAccountTokenGetter = {
    getServiceAccount: () =>
      objs.sa ? Promise.resolve(objs.sa) : Promise.reject(new Error('serviceaccounts "my-service-account" not found')),
    getSecret: () => (objs.secret ? Promise.resolve(objs.secret) : Promise.reject(new Error('secrets "my-secret" not found'))),
    getPod: () => Promise.reject(new Error("none")),
    getNode: () => Promise.reject(new Error("none")),
  };
  const auth = new JWTTokenAuthenticator({
    issuers: [legacyIssuer],
    keys: [rsa.publicKey],
    implicitAudiences: ["api"],
    validator: new LegacyValidator(
      true,
      getter,
      (_ns, name, uid, labels) => {
        patches.push({ name, uid, labels });
        return Promise.resolve();
      },
      () => now,
    ),
  });
  return { auth, patches };
}

// pkg/serviceaccount/jwt_test.go TestTokenGenerateAndValidate: the legacy tokens' rows.
describe("TokenGenerateAndValidate (legacy tokens)", () => {
  const tok = legacyToken();
  it.each([
    { name: "valid lookup", sa: serviceAccount(), secret: secretFor(tok), err: undefined },
    { name: "invalid secret lookup", sa: serviceAccount(), secret: undefined, err: "Token has been invalidated" },
    {
      name: "deleted secret",
      sa: serviceAccount(),
      secret: secretFor(tok, { deletionTimestamp: "2026-03-01T11:00:00Z" }),
      err: "Token has been invalidated",
    },
    {
      name: "token does not match the secret's",
      sa: serviceAccount(),
      secret: secretFor("other"),
      err: "Token does not match server's copy",
    },
    {
      name: "invalid serviceaccount lookup",
      sa: serviceAccount({ uid: "67890" }),
      secret: secretFor(tok),
      err: "ServiceAccount UID (67890) does not match claim (12345)",
    },
    {
      name: "deleted serviceaccount",
      sa: serviceAccount({ deletionTimestamp: "2026-03-01T11:00:00Z" }),
      secret: secretFor(tok),
      err: "ServiceAccount test/my-service-account has been deleted",
    },
    { name: "missing serviceaccount", sa: undefined, secret: secretFor(tok), err: 'serviceaccounts "my-service-account" not found' },
    {
      name: "secret is marked as invalid",
      sa: serviceAccount(),
      secret: secretFor(tok, { labels: { "kubernetes.io/legacy-token-invalid-since": "2026-02-01" } }),
      err: "the token in secret test/my-secret for service account test/my-service-account has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the 'kubernetes.io/legacy-token-invalid-since' label from the secret to temporarily allow use of this token",
    },
  ])("$name", async ({ sa, secret, err }) => {
    const { auth } = setup({ ...(sa ? { sa } : {}), ...(secret ? { secret } : {}) });
    const got = auth.authenticateToken(tok);
    if (err !== undefined) return expect(got).rejects.toThrow(err);
    const r = await got;
    expect(r?.user).toEqual({
      name: "system:serviceaccount:test:my-service-account",
      uid: "12345",
      groups: ["system:serviceaccounts", "system:serviceaccounts:test"],
    });
    expect(r?.audiences).toEqual(["api"]);
  });

  it("refuses a legacy token signed by another key, and leaves tokens of other issuers alone", async () => {
    const { auth } = setup({ sa: serviceAccount(), secret: secretFor(tok) });
    await expect(auth.authenticateToken(legacyToken(otherRSA.privateKey))).rejects.toThrow(
      "go-jose/go-jose: error in cryptographic primitive",
    );
    const other = new JWTTokenGenerator("https://issuer", rsa.privateKey).generateToken({ sub: "x" }, {});
    expect(await auth.authenticateToken(other)).toBeUndefined();
  });
});

describe("legacy validator claims (legacy.go Validate)", () => {
  const sign = (pub: object, priv: object) => new JWTTokenGenerator(legacyIssuer, rsa.privateKey).generateToken(pub, priv);
  const full = legacyClaims({ namespace: "test", name: "my-service-account", uid: "12345" }, "my-secret");
  it.each([
    ["sub claim is missing", {}, full.private],
    ["namespace claim is missing", full.public, { ...full.private, "kubernetes.io/serviceaccount/namespace": "" }],
    ["secretName claim is missing", full.public, { ...full.private, "kubernetes.io/serviceaccount/secret.name": "" }],
    ["serviceAccountName claim is missing", full.public, { ...full.private, "kubernetes.io/serviceaccount/service-account.name": "" }],
    ["serviceAccountUID claim is missing", full.public, { ...full.private, "kubernetes.io/serviceaccount/service-account.uid": "" }],
    ["sub claim is invalid", { sub: "system:serviceaccount:test:someone-else" }, full.private],
  ])("%s", async (err, pub, priv) => {
    const t = sign(pub, priv);
    const { auth } = setup({ sa: serviceAccount(), secret: secretFor(t) });
    await expect(auth.authenticateToken(t)).rejects.toThrow(err);
  });
});

describe("legacy token tracking (LegacyServiceAccountTokenTracking)", () => {
  const tok = legacyToken();
  it("labels the Secret with today's date once, audits the legacy token and the manual Secret", async () => {
    const { auth, patches } = setup({ sa: serviceAccount(), secret: secretFor(tok) });
    const r = await auth.authenticateToken(tok);
    expect(patches).toEqual([{ name: "my-secret", uid: "s-uid", labels: { "kubernetes.io/legacy-token-last-used": "2026-03-01" } }]);
    expect(r?.auditAnnotations).toEqual({
      "authentication.k8s.io/legacy-token": "system:serviceaccount:test:my-service-account",
      "authentication.k8s.io/legacy-token-manual-secret": "my-secret",
    });
    expect(r?.warnings).toBeUndefined();
  });

  it.each([
    ["today", "2026-03-01", 0],
    ["tomorrow (a skewed clock)", "2026-03-02", 0],
    ["yesterday", "2026-02-28", 1],
  ])("a Secret last used %s is labelled again %d times", async (_when, day, n) => {
    const { auth, patches } = setup({
      sa: serviceAccount(),
      secret: secretFor(tok, { labels: { "kubernetes.io/legacy-token-last-used": day } }),
    });
    await auth.authenticateToken(tok);
    expect(patches).toHaveLength(n);
  });

  it("warns about an auto-generated Secret (one the ServiceAccount lists)", async () => {
    const { auth } = setup({ sa: serviceAccount({}, ["my-secret"]), secret: secretFor(tok) });
    const r = await auth.authenticateToken(tok);
    expect(r?.warnings).toEqual([
      "Use tokens from the TokenRequest API or manually created secret-based tokens instead of auto-generated secret-based tokens.",
    ]);
    expect(r?.auditAnnotations?.["authentication.k8s.io/legacy-token-autogenerated-secret"]).toBe("my-secret");
  });

  it("still labels a Secret marked invalid when its token is refused", async () => {
    const secret = secretFor(tok, { labels: { "kubernetes.io/legacy-token-invalid-since": "2026-02-01" } });
    const { auth, patches } = setup({ sa: serviceAccount(), secret });
    await expect(auth.authenticateToken(tok)).rejects.toThrow(/has been marked invalid/);
    expect(patches).toHaveLength(1);
  });
});
