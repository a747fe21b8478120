/**
 * `--anonymous-auth` (staging/src/k8s.io/apiserver/pkg/authentication/request/anonymous/anonymous.go):
 * claims every request, as `system:anonymous` in `system:unauthenticated`. It runs last, behind
 * union.NewFailOnError, so a rejected credential never becomes anonymous.
 */
import { anonymous, allUnauthenticated } from "../../user/user.ts";
import type { AuthResponse, Authenticator } from "../../authenticator/interfaces.ts";

export class AnonymousAuthenticator implements Authenticator {
  authenticateRequest(): AuthResponse {
    return { user: { name: anonymous, uid: "", groups: [allUnauthenticated] } };
  }
}
