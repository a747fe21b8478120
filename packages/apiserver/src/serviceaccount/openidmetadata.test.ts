import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyIDFromPublicKey } from "@servicenet/component-base/serviceaccount";
import { newOpenIDMetadata } from "./openidmetadata.ts";

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const ec = generateKeyPairSync("ec", { namedCurve: "prime256v1" });

// pkg/serviceaccount/openidmetadata_test.go.
describe("NewOpenIDMetadata", () => {
  it("serves the configuration (TestServeConfiguration)", () => {
    const md = newOpenIDMetadata("https://issuer.example.com", "", "192.168.1.1:6443", [rsa.publicKey, ec.publicKey]);
    expect(md.configJSON).toBe(
      '{"issuer":"https://issuer.example.com","jwks_uri":"https://192.168.1.1:6443/openid/v1/jwks","response_types_supported":["id_token"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["ES256","RS256"]}',
    );
  });

  it("serves the keys (TestServeKeys)", () => {
    const md = newOpenIDMetadata("https://issuer.example.com", "https://keys.example.com/jwks", "", [rsa.publicKey, ec.publicKey]);
    const rsaJWK = rsa.publicKey.export({ format: "jwk" });
    const ecJWK = ec.publicKey.export({ format: "jwk" });
    expect(md.publicKeysetJSON).toBe(
      JSON.stringify({
        keys: [
          { use: "sig", kty: "RSA", kid: keyIDFromPublicKey(rsa.publicKey), alg: "RS256", n: rsaJWK.n, e: rsaJWK.e },
          { use: "sig", kty: "EC", kid: keyIDFromPublicKey(ec.publicKey), crv: "P-256", alg: "ES256", x: ecJWK.x, y: ecJWK.y },
        ],
      }),
    );
    expect(JSON.parse(md.configJSON)).toMatchObject({ jwks_uri: "https://keys.example.com/jwks" });
  });

  it.each([
    { name: "empty issuer", iss: "", jwks: "", addr: "a:1", err: "empty issuer URL" },
    {
      name: "neither JWKS URI nor address",
      iss: "https://x",
      jwks: "",
      addr: "",
      err: "either the JWKS URI or the default external address, or both, must be set",
    },
    { name: "http issuer", iss: "http://x", jwks: "", addr: "a:1", err: "issuer URL must use https scheme, got: http://x" },
    {
      name: "issuer with a query",
      iss: "https://x?a=b",
      jwks: "",
      addr: "a:1",
      err: "issuer URL may not include a query, got: https://x?a=b",
    },
    {
      name: "issuer with a fragment",
      iss: "https://x#a",
      jwks: "",
      addr: "a:1",
      err: "issuer URL may not include a fragment, got: https://x#a",
    },
    {
      name: "http JWKS URI",
      iss: "https://x",
      jwks: "http://y/jwks",
      addr: "",
      err: "jwksURI requires https scheme, parsed as: http://y/jwks",
    },
  ])("$name", ({ iss, jwks, addr, err }) => {
    expect(() => newOpenIDMetadata(iss, jwks, addr, [rsa.publicKey])).toThrow(err);
  });

  it("needs keys", () => {
    expect(() => newOpenIDMetadata("https://x", "", "a:1", [])).toThrow("no keys provided for validating keyset");
  });
});
