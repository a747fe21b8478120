/**
 * Union of authenticators (staging/src/k8s.io/apiserver/pkg/authentication/request/union/union.go):
 * the first that claims the request wins; errors of the others are collected and reported only
 * when none does. With failOnError the first error stops the chain (NewFailOnError).
 */
import type { AuthRequest, AuthResponse, Authenticator } from "../../authenticator/interfaces.ts";

export class UnionAuthenticator implements Authenticator {
  private readonly handlers: readonly Authenticator[];
  private readonly failOnError: boolean;

  constructor(handlers: readonly Authenticator[], failOnError = false) {
    this.handlers = handlers;
    this.failOnError = failOnError;
  }

  async authenticateRequest(req: AuthRequest): Promise<AuthResponse | undefined> {
    const errs: string[] = [];
    for (const h of this.handlers) {
      let resp: AuthResponse | undefined;
      try {
        resp = await h.authenticateRequest(req);
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        if (this.failOnError) throw new Error(msg);
        errs.push(msg);
        continue;
      }
      if (resp !== undefined) return resp;
    }
    // utilerrors.NewAggregate: one error as itself, several as "[a, b]".
    if (errs.length === 1) throw new Error(errs[0]);
    if (errs.length > 1) throw new Error(`[${errs.join(", ")}]`);
    return undefined;
  }
}

/** union.New. */
export const newUnion = (...handlers: Authenticator[]): Authenticator => new UnionAuthenticator(handlers);
/** union.NewFailOnError. */
export const newFailOnError = (...handlers: Authenticator[]): Authenticator => new UnionAuthenticator(handlers, true);
