/**
 * AuthenticatedGroupAdder (staging/src/k8s.io/apiserver/pkg/authentication/group/authenticated_group_adder.go):
 * every user an authenticator claims is also in `system:authenticated`, unless it is anonymous or
 * already in `system:authenticated` or `system:unauthenticated`.
 */
import { allAuthenticated, allUnauthenticated, anonymous } from "../user/user.ts";
import type { AuthRequest, AuthResponse, Authenticator } from "../authenticator/interfaces.ts";

export class AuthenticatedGroupAdder implements Authenticator {
  private readonly auth: Authenticator;

  constructor(auth: Authenticator) {
    this.auth = auth;
  }

  async authenticateRequest(req: AuthRequest): Promise<AuthResponse | undefined> {
    const r = await this.auth.authenticateRequest(req);
    if (r === undefined) return undefined;
    if (r.user.name === anonymous) return r;
    if (r.user.groups.some((g) => g === allAuthenticated || g === allUnauthenticated)) return r;
    return { ...r, user: { ...r.user, groups: [...r.user.groups, allAuthenticated] } };
  }
}
