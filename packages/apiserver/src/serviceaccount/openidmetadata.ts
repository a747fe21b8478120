/**
 * Service-account issuer discovery (pkg/serviceaccount/openidmetadata.go NewOpenIDMetadata, served
 * by pkg/routes/openidmetadata.go): the OIDC discovery document at
 * `/.well-known/openid-configuration` and the verification keys as a JWKS at `/openid/v1/jwks`,
 * so that relying parties outside the cluster can verify service-account tokens.
 */
import type { KeyObject } from "node:crypto";
import { algorithmOf, keyIDFromPublicKey } from "@servicenet/component-base/serviceaccount";

export const openIDConfigPath = "/.well-known/openid-configuration";
export const jwksPath = "/openid/v1/jwks";
/** Both documents change only across restarts: clients may cache them for an hour. */
export const openIDCacheControl = "public, max-age=3600";
export const mimeJWKS = "application/jwk-set+json";

/** The two documents, pre-rendered. */
export interface OpenIDMetadata {
  configJSON: string;
  publicKeysetJSON: string;
}

/** jose.JSONWebKey of a public key, in rawJSONWebKey's field order (use, kty, kid, crv, alg, x, y, n, e). */
function jwkFromPublicKey(key: KeyObject): Record<string, string> {
  const jwk = key.export({ format: "jwk" }) as Record<string, string>;
  const alg = algorithmOf(key);
  const kid = keyIDFromPublicKey(key);
  return jwk["kty"] === "RSA"
    ? { use: "sig", kty: "RSA", kid, alg, n: jwk["n"]!, e: jwk["e"]! }
    : { use: "sig", kty: "EC", kid, crv: jwk["crv"]!, alg, x: jwk["x"]!, y: jwk["y"]! };
}

function parseURL(u: string): URL {
  try {
    return new URL(u);
  } catch (e) {
    throw new Error(`parse ${JSON.stringify(u)}: ${(e as Error).message}`);
  }
}

/**
 * NewOpenIDMetadata: the issuer must be an https URL without query or fragment (OIDC's rule on top
 * of the service-account issuer's); the JWKS URI is `jwksURI`, else `https://<externalAddress>/openid/v1/jwks`.
 */
export function newOpenIDMetadata(
  issuerURL: string,
  jwksURI: string,
  externalAddress: string,
  pubKeys: readonly KeyObject[],
): OpenIDMetadata {
  if (issuerURL === "") throw new Error("empty issuer URL");
  if (jwksURI === "" && externalAddress === "")
    throw new Error("either the JWKS URI or the default external address, or both, must be set");
  if (pubKeys.length === 0) throw new Error("no keys provided for validating keyset");
  const iss = parseURL(issuerURL);
  if (iss.protocol !== "https:") throw new Error(`issuer URL must use https scheme, got: ${issuerURL}`);
  if (iss.search !== "") throw new Error(`issuer URL may not include a query, got: ${issuerURL}`);
  if (iss.hash !== "") throw new Error(`issuer URL may not include a fragment, got: ${issuerURL}`);
  if (jwksURI === "") jwksURI = `https://${externalAddress}${jwksPath}`;
  else if (parseURL(jwksURI).protocol !== "https:") throw new Error(`jwksURI requires https scheme, parsed as: ${jwksURI}`);
  const keys = pubKeys.map(jwkFromPublicKey);
  const algs = [...new Set(keys.map((k) => k["alg"]!))].sort();
  // openIDMetadata's field order.
  const config = {
    issuer: issuerURL,
    jwks_uri: jwksURI,
    response_types_supported: ["id_token"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: algs,
  };
  return { configJSON: JSON.stringify(config), publicKeysetJSON: JSON.stringify({ keys }) };
}
