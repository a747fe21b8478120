/**
 * The request authenticator kube-apiserver builds from its flags
 * (pkg/kubeapiserver/authenticator/config.go `Config.New`): x509 client certificates, then the
 * bearer tokens of the token file and the service-account issuer in one token union, with
 * `system:authenticated` added to whoever they name, then anonymous behind NewFailOnError when
 * `--anonymous-auth` is on (so a bad credential stays an error). Requests accept the API audiences
 * unless they name their own (a TokenReview's), as the WithAuthentication filter sets them.
 */
import type { UserInfo } from "./user/user.ts";
import type { AuthRequest, Authenticator, TokenAuthenticator } from "./authenticator/interfaces.ts";
import { wrapAudienceAgnosticToken } from "./authenticator/audiences.ts";
import { AuthenticatedGroupAdder } from "./group/authenticated-group-adder.ts";
import { AnonymousAuthenticator } from "./request/anonymous/anonymous.ts";
import { BearerTokenAuthenticator } from "./request/bearertoken/bearertoken.ts";
import { newFailOnError, newUnion } from "./request/union/union.ts";
import { X509Authenticator } from "./request/x509/x509.ts";
import { TokenFileAuthenticator } from "./token/tokenfile/tokenfile.ts";
import { UnionTokenAuthenticator } from "./token/union/union.ts";

export interface AuthenticatorConfig {
  /** `--token-auth-file`, parsed. */
  tokens?: ReadonlyMap<string, UserInfo>;
  /** `--client-ca-file` is set (the TLS server verifies the chain; the authenticator reads the result). */
  clientCA?: boolean;
  /** `--anonymous-auth` (default true). */
  anonymous?: boolean;
  /** `--api-audiences` (default the service-account issuers): what an API request's credentials must be for. */
  apiAudiences?: readonly string[];
  /** The service-account token authenticators (serviceaccount/jwt-authenticator.ts): the legacy one's, then the issuers'. */
  serviceAccount?: readonly TokenAuthenticator[];
}

/** Config.New. */
export function newAuthenticator(c: AuthenticatorConfig): Authenticator {
  const authenticators: Authenticator[] = [];
  if (c.clientCA) authenticators.push(new X509Authenticator());
  const apiAudiences = c.apiAudiences ?? [];
  const tokenAuthenticators: TokenAuthenticator[] = [];
  if (c.tokens) tokenAuthenticators.push(wrapAudienceAgnosticToken(apiAudiences, new TokenFileAuthenticator(c.tokens)));
  if (c.serviceAccount) tokenAuthenticators.push(...c.serviceAccount);
  if (tokenAuthenticators.length > 0) authenticators.push(new BearerTokenAuthenticator(new UnionTokenAuthenticator(tokenAuthenticators)));
  const authenticated = new AuthenticatedGroupAdder(newUnion(...authenticators));
  const chain = (c.anonymous ?? true) ? newFailOnError(authenticated, new AnonymousAuthenticator()) : authenticated;
  return apiAudiences.length === 0 ? chain : withAudiences(chain, apiAudiences);
}

/** WithAuthentication's `authenticator.WithAudiences(ctx, apiAuds)`: a request naming none accepts the API audiences. */
function withAudiences(delegate: Authenticator, apiAudiences: readonly string[]): Authenticator {
  return {
    authenticateRequest: (req: AuthRequest) =>
      delegate.authenticateRequest(req.audiences === undefined ? { ...req, audiences: apiAudiences } : req),
  };
}
