/**
 * authentication.k8s.io/v1 TokenReview (pkg/registry/authentication/tokenreview/storage.go):
 * authenticates `spec.token` with the server's own request authenticator, as a request that
 * carries nothing but `Authorization: Bearer <token>`, and answers who it is. Create-only, never
 * stored.
 */
import { StatusError } from "@servicenet/api";
import type { Authenticator } from "../../../authentication/authenticator/interfaces.ts";
import { invalidToken } from "../../../authentication/request/bearertoken/bearertoken.ts";

type Body = Record<string, unknown>;

export interface TokenReviewContext {
  /** The server's request authenticator; undefined when authentication is off (the review is echoed). */
  authenticator: Authenticator | undefined;
  /**
   * kube-apiserver's `--api-audiences` (the implicit audiences of audience-agnostic authenticators
   * such as the token file); empty by default here.
   */
  apiAudiences?: readonly string[];
  /** The request's namespace; a TokenReview is cluster-scoped. */
  namespace: string;
  /** Validating admission of the review (rest.ValidateObjectFunc), after its own checks; throws to refuse. */
  createValidation?: ((obj: Body) => Promise<void>) | undefined;
}

/** REST.Create. */
export async function tokenReview(body: Body, ctx: TokenReviewContext): Promise<Body> {
  if (ctx.namespace !== "") throw StatusError.badRequest(`namespace is not allowed on this type: ${ctx.namespace}`);
  const spec = (body["spec"] ?? {}) as { token?: string; audiences?: string[] };
  const token = spec.token ?? "";
  if (token === "") throw StatusError.badRequest("token is required for TokenReview in authentication");
  await ctx.createValidation?.(structuredClone(body));
  const review: Body = {
    kind: "TokenReview",
    apiVersion: "authentication.k8s.io/v1",
    metadata: { ...(body["metadata"] ?? {}), creationTimestamp: null },
    spec,
  };
  if (ctx.authenticator === undefined) return { ...review, status: { user: {} } };
  const implicit = ctx.apiAudiences ?? [];
  const requested = spec.audiences !== undefined && spec.audiences.length > 0 ? spec.audiences : implicit;
  const status: Body = {};
  try {
    // authenticator.WrapAudienceAgnosticToken: with audiences asked for, a token of an
    // audience-agnostic authenticator (the token file) holds only for the implicit audiences it
    // shares; none shared is no authentication, which the bearer-token authenticator reports.
    const shared = implicit.filter((a) => requested.includes(a));
    if (requested.length > 0 && shared.length === 0) throw new Error(invalidToken);
    const resp = await ctx.authenticator.authenticateRequest({ headers: { authorization: `Bearer ${token}` } });
    if (resp === undefined) status["user"] = {};
    else {
      // TokenReviewStatus field order: authenticated, user, audiences, error.
      status["authenticated"] = true;
      status["user"] = userInfo(resp.user);
      if (requested.length > 0) status["audiences"] = shared;
    }
  } catch (e) {
    status["user"] = {};
    status["error"] = e instanceof Error ? e.message : String(e);
  }
  return { ...review, status };
}

/** authentication/v1 UserInfo: uid, groups and extra are omitempty. */
function userInfo(u: { name: string; uid: string; groups: readonly string[]; extra?: Record<string, readonly string[]> }): Body {
  return {
    username: u.name,
    ...(u.uid !== "" ? { uid: u.uid } : {}),
    ...(u.groups.length > 0 ? { groups: [...u.groups] } : {}),
    ...(u.extra && Object.keys(u.extra).length > 0 ? { extra: u.extra } : {}),
  };
}
