/**
 * The `Authorization: Bearer` authenticator
 * (staging/src/k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go): no header,
 * another scheme or an empty token is "not mine"; a token no one has is an error ("invalid bearer
 * token"), so it is a 401 rather than anonymous.
 */
import type { AuthRequest, AuthResponse, Authenticator, TokenAuthenticator } from "../../authenticator/interfaces.ts";

export const invalidToken = "invalid bearer token";

export class BearerTokenAuthenticator implements Authenticator {
  private readonly auth: TokenAuthenticator;

  constructor(auth: TokenAuthenticator) {
    this.auth = auth;
  }

  async authenticateRequest(req: AuthRequest): Promise<AuthResponse | undefined> {
    const header = req.headers["authorization"];
    const auth = (Array.isArray(header) ? (header[0] ?? "") : (header ?? "")).trim();
    if (auth === "") return undefined;
    const parts = auth.split(" ");
    if (parts.length < 2 || parts[0]!.toLowerCase() !== "bearer") return undefined;
    // "Bearer a b" authenticates "a", as upstream's split on single spaces does.
    const token = parts[1]!;
    if (token === "") return undefined;
    const resp = await this.auth.authenticateToken(token);
    if (resp === undefined) throw new Error(invalidToken);
    return resp;
  }
}
