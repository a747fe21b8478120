/**
 * The request authenticator kube-apiserver builds from its flags
 * (pkg/kubeapiserver/authenticator/config.go `Config.New`): x509 client certificates and the token
 * file in a union, `system:authenticated` added to whoever they name, then anonymous behind
 * NewFailOnError when `--anonymous-auth` is on (so a bad credential stays an error).
 */
import type { UserInfo } from "./user/user.ts";
import type { Authenticator } from "./authenticator/interfaces.ts";
import { AuthenticatedGroupAdder } from "./group/authenticated-group-adder.ts";
import { AnonymousAuthenticator } from "./request/anonymous/anonymous.ts";
import { BearerTokenAuthenticator } from "./request/bearertoken/bearertoken.ts";
import { newFailOnError, newUnion } from "./request/union/union.ts";
import { X509Authenticator } from "./request/x509/x509.ts";
import { TokenFileAuthenticator } from "./token/tokenfile/tokenfile.ts";

export interface AuthenticatorConfig {
  /** `--token-auth-file`, parsed. */
  tokens?: ReadonlyMap<string, UserInfo>;
  /** `--client-ca-file` is set (the TLS server verifies the chain; the authenticator reads the result). */
  clientCA?: boolean;
  /** `--anonymous-auth` (default true). */
  anonymous?: boolean;
}

/** Config.New. */
export function newAuthenticator(c: AuthenticatorConfig): Authenticator {
  const authenticators: Authenticator[] = [];
  if (c.clientCA) authenticators.push(new X509Authenticator());
  if (c.tokens) authenticators.push(new BearerTokenAuthenticator(new TokenFileAuthenticator(c.tokens)));
  const authenticated = new AuthenticatedGroupAdder(newUnion(...authenticators));
  return (c.anonymous ?? true) ? newFailOnError(authenticated, new AnonymousAuthenticator()) : authenticated;
}
