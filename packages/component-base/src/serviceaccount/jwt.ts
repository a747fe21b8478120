/**
 * Service-account JWTs (pkg/serviceaccount/jwt.go): the generator that signs claims, a
 * TokenRequest's with kube-apiserver's `--service-account-signing-key-file` and a token Secret's
 * with kube-controller-manager's `--service-account-private-key-file` (RS256 for an RSA key,
 * ES256/384/512 for a P-256, P-384 or P-521 key; `kid` is the key's ID), and the compact-JWS
 * encoding go-jose writes: header and claims as JSON with sorted keys, base64url without padding.
 */
import { createHash, createPublicKey, sign, type KeyObject } from "node:crypto";

/** jwt.Claims: the registered claims (numeric dates in seconds). */
export interface PublicClaims {
  iss?: string;
  sub?: string;
  aud?: string[];
  exp?: number;
  nbf?: number;
  iat?: number;
  jti?: string;
}

/** The JWS algorithms the generator and the authenticator use, by key. */
export type SignatureAlgorithm = "RS256" | "ES256" | "ES384" | "ES512";

const curveAlgorithms: Readonly<Record<string, SignatureAlgorithm>> = {
  prime256v1: "ES256",
  secp384r1: "ES384",
  secp521r1: "ES512",
};

/** The hash of each algorithm (node:crypto's digest name). */
export const algorithmHash: Readonly<Record<SignatureAlgorithm, string>> = {
  RS256: "sha256",
  ES256: "sha256",
  ES384: "sha384",
  ES512: "sha512",
};

/** The algorithm a key signs with (signerFromRSAPrivateKey / signerFromECDSAPrivateKey). */
export function algorithmOf(key: KeyObject): SignatureAlgorithm {
  if (key.asymmetricKeyType === "rsa") return "RS256";
  if (key.asymmetricKeyType === "ec") {
    const alg = curveAlgorithms[key.asymmetricKeyDetails?.namedCurve ?? ""];
    if (alg === undefined) throw new Error("unknown private key curve, must be 256, 384, or 521");
    return alg;
  }
  throw new Error(`unknown private key type ${key.asymmetricKeyType ?? ""}, must be RSA or ECDSA`);
}

/** keyIDFromPublicKey: the base64url (unpadded) SHA-256 of the public key's PKIX DER. */
export function keyIDFromPublicKey(key: KeyObject): string {
  const pub = key.type === "private" ? createPublicKey(key) : key;
  return createHash("sha256")
    .update(pub.export({ type: "spki", format: "der" }))
    .digest("base64url");
}

/** JSON with every object's keys sorted, as go-jose writes a merged claims map. */
export function sortedJSON(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJSON).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${sortedJSON(x)}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

/** privateClaims' refs are omitempty: empty names and uids are left out. */
function withoutEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v;
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== "" && x !== undefined) out[k] = withoutEmpty(x);
    return out;
  }
  return v;
}

/** TokenGenerator: signs claims. */
export interface TokenGenerator {
  /** `priv`: the private claims object (a bound token's `kubernetes.io` claim, or the legacy flat claims). */
  generateToken(pub: PublicClaims, priv: object): string;
}

/** JWTTokenGenerator(iss, privateKey). */
export class JWTTokenGenerator implements TokenGenerator {
  private readonly iss: string;
  private readonly key: KeyObject;
  private readonly alg: SignatureAlgorithm;
  private readonly header: string;

  constructor(iss: string, privateKey: KeyObject) {
    this.iss = iss;
    this.key = privateKey;
    this.alg = algorithmOf(privateKey);
    this.header = Buffer.from(sortedJSON({ alg: this.alg, kid: keyIDFromPublicKey(privateKey) })).toString("base64url");
  }

  /** GenerateToken: the claims with `iss` set, signed. */
  generateToken(pub: PublicClaims, priv: object): string {
    // An empty audience is omitempty too.
    const aud = pub.aud !== undefined && pub.aud.length > 0 ? pub.aud : undefined;
    const payload = Buffer.from(sortedJSON(withoutEmpty({ ...pub, aud, ...priv, iss: this.iss }))).toString("base64url");
    const input = `${this.header}.${payload}`;
    // JWS wants ECDSA signatures as r||s (IEEE P1363), not DER.
    const sig = sign(algorithmHash[this.alg], Buffer.from(input), { key: this.key, dsaEncoding: "ieee-p1363" });
    return `${input}.${sig.toString("base64url")}`;
  }
}
