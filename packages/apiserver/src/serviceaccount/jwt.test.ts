import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../storage/index.ts";
import { claims, Validator, type ServiceAccountTokenGetter } from "./claims.ts";
import { JWTTokenGenerator, keyIDFromPublicKey } from "@servicenet/component-base/serviceaccount";
import { errCryptoFailure, JWTTokenAuthenticator } from "./jwt-authenticator.ts";

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const otherRSA = generateKeyPairSync("rsa", { modulusLength: 2048 });
const ec = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
const ec384 = generateKeyPairSync("ec", { namedCurve: "secp384r1" });

const sa = { metadata: { name: "my-service-account", namespace: "test", uid: "12345" } } as KubeObject;
const getter: ServiceAccountTokenGetter = {
  getServiceAccount: () => Promise.resolve(sa),
  getPod: () => Promise.reject(new Error("none")),
  getSecret: () => Promise.reject(new Error("none")),
  getNode: () => Promise.reject(new Error("none")),
};

function token(key: KeyObject, iss = "foo", aud: string[] = ["api"]): string {
  const c = claims(sa, {}, 3600, 0, aud, new Date());
  return new JWTTokenGenerator(iss, key).generateToken(c.public, c.private);
}

function authenticator(keys: KeyObject[], issuers = ["foo"], auds = ["api"]): JWTTokenAuthenticator {
  return new JWTTokenAuthenticator({ issuers, keys, implicitAudiences: auds, validator: new Validator(getter) });
}

const decode = (part: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;

// pkg/serviceaccount/jwt_test.go TestTokenGenerateAndValidate.
describe("TokenGenerateAndValidate", () => {
  const rsaToken = token(rsa.privateKey);
  const ecToken = token(ec.privateKey);
  it.each([
    { name: "no keys", tok: rsaToken, keys: [], ok: false, err: undefined },
    { name: "invalid keys (rsa)", tok: rsaToken, keys: [otherRSA.publicKey], ok: false, err: errCryptoFailure },
    { name: "invalid keys (ecdsa)", tok: ecToken, keys: [ec384.publicKey], ok: false, err: errCryptoFailure },
    { name: "valid key (rsa)", tok: rsaToken, keys: [rsa.publicKey], ok: true, err: undefined },
    { name: "valid key (ecdsa)", tok: ecToken, keys: [ec.publicKey], ok: true, err: undefined },
    { name: "rsa token, ecdsa key", tok: rsaToken, keys: [ec.publicKey], ok: false, err: errCryptoFailure },
    { name: "rotated keys", tok: rsaToken, keys: [otherRSA.publicKey, ec.publicKey, rsa.publicKey], ok: true, err: undefined },
    { name: "valid key, invalid issuer", tok: token(rsa.privateKey, "bar"), keys: [rsa.publicKey], ok: false, err: undefined },
    {
      name: "valid key, multiple issuers",
      tok: token(rsa.privateKey, "bar"),
      keys: [rsa.publicKey],
      issuers: ["foo", "bar"],
      ok: true,
      err: undefined,
    },
    { name: "not a JWT", tok: "abc.def", keys: [rsa.publicKey], ok: false, err: undefined },
    {
      name: "tampered claims",
      tok: ((t: string) => {
        const [h, p, s] = t.split(".");
        const claims = { ...decode(p!), sub: "system:serviceaccount:test:admin" };
        return `${h}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${s}`;
      })(rsaToken),
      keys: [rsa.publicKey],
      ok: false,
      err: errCryptoFailure,
    },
    {
      name: "audience not accepted",
      tok: token(rsa.privateKey, "foo", ["other"]),
      keys: [rsa.publicKey],
      ok: false,
      err: 'token audiences ["other"] is invalid for the target audiences ["api"]',
    },
  ])("$name", async ({ tok, keys, issuers, ok, err }) => {
    const a = authenticator(keys, issuers);
    if (err !== undefined) {
      await expect(a.authenticateToken(tok)).rejects.toThrow(err);
      return;
    }
    const resp = await a.authenticateToken(tok);
    expect(resp !== undefined).toBe(ok);
    if (resp === undefined) return;
    expect(resp.user).toEqual({
      name: "system:serviceaccount:test:my-service-account",
      uid: "12345",
      groups: ["system:serviceaccounts", "system:serviceaccounts:test"],
      extra: { "authentication.kubernetes.io/credential-id": [`JTI=${String(decode(tok.split(".")[1]!)["jti"])}`] },
    });
    expect(resp.audiences).toEqual(["api"]);
  });

  it("accepts the audiences the request asks for", async () => {
    const resp = await authenticator([rsa.publicKey]).authenticateToken(token(rsa.privateKey, "foo", ["x", "y"]), ["y"]);
    expect(resp?.audiences).toEqual(["y"]);
  });

  it("a token without audiences is for the API audiences", async () => {
    const resp = await authenticator([rsa.publicKey]).authenticateToken(token(rsa.privateKey, "foo", []));
    expect(resp?.audiences).toEqual(["api"]);
  });
});

describe("JWTTokenGenerator", () => {
  it("writes go-jose's compact JWS: alg and kid, claims with sorted keys", () => {
    const [h, p] = token(rsa.privateKey).split(".");
    expect(decode(h!)).toEqual({ alg: "RS256", kid: keyIDFromPublicKey(rsa.publicKey) });
    expect(Buffer.from(h!, "base64url").toString()).toMatch(/^\{"alg":"RS256","kid":"[A-Za-z0-9_-]{43}"\}$/);
    const payload = Buffer.from(p!, "base64url").toString();
    expect(Object.keys(JSON.parse(payload) as object)).toEqual(["aud", "exp", "iat", "iss", "jti", "kubernetes.io", "nbf", "sub"]);
    expect(payload).toContain('"kubernetes.io":{"namespace":"test","serviceaccount":{"name":"my-service-account","uid":"12345"}}');
  });

  it.each([
    ["prime256v1", "ES256"],
    ["secp384r1", "ES384"],
    ["secp521r1", "ES512"],
  ] as const)("an ECDSA %s key signs %s", (namedCurve, alg) => {
    const k = generateKeyPairSync("ec", { namedCurve });
    expect(decode(token(k.privateKey).split(".")[0]!)["alg"]).toBe(alg);
  });

  it("the key ID is the same from the private and the public key", () => {
    expect(keyIDFromPublicKey(rsa.privateKey)).toBe(keyIDFromPublicKey(rsa.publicKey));
  });
});
