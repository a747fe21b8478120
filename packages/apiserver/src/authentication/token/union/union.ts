/**
 * Union of token authenticators (staging/src/k8s.io/apiserver/pkg/authentication/token/union/union.go):
 * the first that knows the token wins; otherwise the others' errors, as one aggregate.
 */
import type { AuthResponse, TokenAuthenticator } from "../../authenticator/interfaces.ts";

/** utilerrors.NewAggregate's message: one error as itself, several (duplicates once) as "[a, b]". */
export function aggregateMessage(errs: readonly string[]): string {
  const unique = [...new Set(errs)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(", ")}]`;
}

export class UnionTokenAuthenticator implements TokenAuthenticator {
  private readonly handlers: readonly TokenAuthenticator[];

  constructor(handlers: readonly TokenAuthenticator[]) {
    this.handlers = handlers;
  }

  async authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthResponse | undefined> {
    const errs: string[] = [];
    for (const h of this.handlers) {
      try {
        const resp = await h.authenticateToken(token, audiences);
        if (resp !== undefined) return resp;
      } catch (e) {
        errs.push(e instanceof Error ? e.message : String(e));
      }
    }
    if (errs.length > 0) throw new Error(aggregateMessage(errs));
    return undefined;
  }
}
