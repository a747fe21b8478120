/**
 * The service-account token authenticator (pkg/serviceaccount/jwt.go JWTTokenAuthenticator):
 * a compact JWS whose `iss` is one of `--service-account-issuer`, verified with one of the
 * `--service-account-key-file` keys, for an audience the request accepts (the API audiences by
 * default), whose claims the validator finds still true. A token of another issuer, or no JWS at
 * all, is not this authenticator's (other token authenticators may know it).
 */
import { goQuote } from "@servicenet/api";
import { verify, type KeyObject } from "node:crypto";
import type { AuthResponse, TokenAuthenticator } from "../authentication/authenticator/interfaces.ts";
import { intersectAudiences } from "../authentication/authenticator/audiences.ts";
import { serviceAccountUserInfo } from "../authentication/serviceaccount/util.ts";
import type { ServiceAccountInfo } from "../authentication/serviceaccount/util.ts";
import type { PublicClaims } from "./claims.ts";
import { algorithmHash, type SignatureAlgorithm } from "@servicenet/component-base/serviceaccount";

/** go-jose's ErrCryptoFailure: what a signature that does not verify with a key is. */
export const errCryptoFailure = "go-jose/go-jose: error in cryptographic primitive";

/** A parsed compact JWS (jwt.ParseSigned). */
interface SignedToken {
  alg: string;
  input: Buffer;
  signature: Buffer;
  payload: Record<string, unknown>;
}

function parseSigned(token: string): SignedToken | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, "base64url").toString("utf8")) as { alg?: unknown };
    const payload = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8")) as unknown;
    if (typeof header.alg !== "string" || payload === null || typeof payload !== "object" || Array.isArray(payload)) return undefined;
    return {
      alg: header.alg,
      input: Buffer.from(`${parts[0]}.${parts[1]}`),
      signature: Buffer.from(parts[2]!, "base64url"),
      payload: payload as Record<string, unknown>,
    };
  } catch {
    return undefined;
  }
}

/** Whether a key verifies the token's signature under its `alg` (JSONWebSignature.Verify). */
function verifies(tok: SignedToken, key: KeyObject): boolean {
  const hash = algorithmHash[tok.alg as SignatureAlgorithm];
  if (hash === undefined) return false;
  const isRSA = tok.alg.startsWith("RS");
  if (isRSA !== (key.asymmetricKeyType === "rsa")) return false;
  try {
    return verify(hash, tok.input, isRSA ? key : { key, dsaEncoding: "ieee-p1363" }, tok.signature);
  } catch {
    return false;
  }
}

/** jwt.Audience: a string or an array of strings. */
function audiences(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.filter((a): a is string => typeof a === "string");
  return [];
}

/**
 * What a validator reads and adds on the request's context: the token itself (a legacy token is
 * compared with its Secret's copy), the audit annotations (audit.AddAuditAnnotation) and the
 * warnings (warning.AddWarning).
 */
export interface TokenContext {
  token: string;
  auditAnnotations: Record<string, string>;
  warnings: string[];
}

/** Validator[PrivateClaims]: checks a verified token's claims; throws why it is not valid. */
export interface TokenValidator {
  validate(pub: PublicClaims, priv: never, t: TokenContext): Promise<ServiceAccountInfo>;
}

export interface JWTTokenAuthenticatorConfig {
  /** `--service-account-issuer`, every one accepted (the legacy authenticator's is `kubernetes/serviceaccount`). */
  issuers: readonly string[];
  /** `--service-account-key-file`'s public keys. */
  keys: readonly KeyObject[];
  /** The API audiences (`--api-audiences`, default the issuers): tokens without `aud` are for them. */
  implicitAudiences: readonly string[];
  /** The bound tokens' Validator (claims.ts) or the LegacyValidator (legacy.ts). */
  validator: TokenValidator;
}

/** JWTTokenAuthenticator. */
export class JWTTokenAuthenticator implements TokenAuthenticator {
  private readonly issuers: ReadonlySet<string>;
  private readonly c: JWTTokenAuthenticatorConfig;

  constructor(c: JWTTokenAuthenticatorConfig) {
    this.c = c;
    this.issuers = new Set(c.issuers);
  }

  async authenticateToken(token: string, requested?: readonly string[]): Promise<AuthResponse | undefined> {
    const tok = parseSigned(token);
    // hasCorrectIssuer: another issuer's token is not ours.
    if (tok === undefined || typeof tok.payload["iss"] !== "string" || !this.issuers.has(tok.payload["iss"])) return undefined;
    // No key at all is no error (an empty aggregate), just not authenticated.
    if (this.c.keys.length === 0) return undefined;
    if (!this.c.keys.some((k) => verifies(tok, k))) throw new Error(errCryptoFailure);
    const pub = tok.payload as PublicClaims;
    const t: TokenContext = { token, auditAnnotations: {}, warnings: [] };
    let tokenAudiences = audiences(tok.payload["aud"]);
    // Only the API audiences are allowed for a legacy token (one without audiences); it is audited.
    if (tokenAudiences.length === 0) {
      t.auditAnnotations["authentication.k8s.io/legacy-token"] = pub.sub ?? "";
      tokenAudiences = [...this.c.implicitAudiences];
    }
    const target = requested ?? this.c.implicitAudiences;
    const auds = intersectAudiences(tokenAudiences, target);
    if (auds.length === 0 && this.c.implicitAudiences.length !== 0)
      throw new Error(`token audiences ${goQuoteList(tokenAudiences)} is invalid for the target audiences ${goQuoteList(target)}`);
    const sa = await this.c.validator.validate(pub, tok.payload as never, t);
    return {
      user: serviceAccountUserInfo(sa),
      audiences: auds,
      auditAnnotations: t.auditAnnotations,
      ...(t.warnings.length > 0 ? { warnings: t.warnings } : {}),
    };
  }
}

/** Go's %q of a []string: `["a" "b"]`. */
const goQuoteList = (xs: readonly string[]): string => `[${xs.map(goQuote).join(" ")}]`;
