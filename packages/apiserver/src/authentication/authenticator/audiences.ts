/**
 * Audiences (staging/src/k8s.io/apiserver/pkg/authentication/authenticator/audiences.go and
 * audagnostic.go): the audiences a request accepts, and the wrapper that lets an audience-agnostic
 * token authenticator (the token file) answer only for the API audiences.
 */
import type { AuthResponse, TokenAuthenticator } from "./interfaces.ts";

/** Audiences.Intersect: the members of `a` also in `b`, in `a`'s order. */
export function intersectAudiences(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.includes(x));
}

/**
 * WrapAudienceAgnosticToken: with audiences asked for, the delegate's user holds only for the
 * implicit (API) audiences the request shares; none shared is no authentication.
 */
export function wrapAudienceAgnosticToken(implicit: readonly string[], delegate: TokenAuthenticator): TokenAuthenticator {
  return {
    async authenticateToken(token: string, requested?: readonly string[]): Promise<AuthResponse | undefined> {
      if (requested === undefined) return delegate.authenticateToken(token);
      const auds = intersectAudiences(implicit, requested);
      if (auds.length === 0) return undefined;
      const resp = await delegate.authenticateToken(token);
      return resp === undefined ? undefined : { ...resp, audiences: auds };
    },
  };
}
