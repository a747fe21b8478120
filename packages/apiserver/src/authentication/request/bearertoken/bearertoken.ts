/**
 * The `Authorization: Bearer` authenticator
 * (staging/src/k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go): no header,
 * another scheme or an empty token is "not mine"; a token no one has is an error ("invalid bearer
 * token"), so it is a 401 rather than anonymous.
 */
import { trimHeaderSpace } from "../../../util/strings/trim-space.ts";
import type { AuthRequest, AuthResponse, Authenticator, TokenAuthenticator } from "../../authenticator/interfaces.ts";

export const invalidToken = "invalid bearer token";

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
    const resp = await this.auth.authenticateToken(token, req.audiences);
    if (resp === undefined) throw new Error(invalidToken);
    return resp;
  }
}
