/**
 * The `Authorization: Bearer` authenticator
 * (staging/src/k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go): no header,
 * another scheme or an empty token is "not mine"; a token no one has is an error ("invalid bearer
 * token"), so it is a 401 rather than anonymous.
 */
import type { AuthRequest, AuthResponse, Authenticator, TokenAuthenticator } from "../../authenticator/interfaces.ts";

export const invalidToken = "invalid bearer token";

/**
 * Go's unicode.IsSpace runes as UTF-8 byte sequences, matched on a header value as node gives it
 * (one char per byte, latin1). UTF-8 is self-synchronising, so matching these at either end trims
 * exactly what Go's strings.TrimSpace trims from the raw bytes: a lone 0xA0 byte is invalid UTF-8
 * (RuneError, not a space) and stays, while C2 A0 (U+00A0) and C2 85 (U+0085) go.
 */
const goSpace =
  "(?:[\\t\\n\\v\\f\\r ]|\\xc2[\\x85\\xa0]|\\xe1\\x9a\\x80|\\xe2\\x80[\\x80-\\x8a\\xa8\\xa9\\xaf]|\\xe2\\x81\\x9f|\\xe3\\x80\\x80)";
const leadingSpace = new RegExp(`^${goSpace}+`);
const trailingSpace = new RegExp(`${goSpace}+$`);

/** Go's strings.TrimSpace over a header value's bytes (a latin1 string). */
export function trimHeaderSpace(value: string): string {
  return value.replace(leadingSpace, "").replace(trailingSpace, "");
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export class BearerTokenAuthenticator implements Authenticator {
  private readonly auth: TokenAuthenticator;

  constructor(auth: TokenAuthenticator) {
    this.auth = auth;
  }

  async authenticateRequest(req: AuthRequest): Promise<AuthResponse | undefined> {
    const header = req.headers["authorization"];
    const auth = trimHeaderSpace(Array.isArray(header) ? (header[0] ?? "") : (header ?? ""));
    if (auth === "") return undefined;
    const parts = auth.split(" ");
    if (parts.length < 2 || parts[0]!.toLowerCase() !== "bearer") return undefined;
    // "Bearer a b" authenticates "a", as upstream's split on single spaces does.
    const raw = parts[1]!;
    if (raw === "") return undefined;
    // The token's bytes as the token authenticators compare them (UTF-8 text); bytes that are not
    // UTF-8 match no token of a token file.
    let token: string;
    try {
      token = utf8.decode(Buffer.from(raw, "latin1"));
    } catch {
      throw new Error(invalidToken);
    }
    const resp = await this.auth.authenticateToken(token);
    if (resp === undefined) throw new Error(invalidToken);
    return resp;
  }
}
