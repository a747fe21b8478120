/**
 * authentication.k8s.io/v1 TokenReview (pkg/registry/authentication/tokenreview/storage.go):
 * authenticates `spec.token` with the server's own request authenticator, as a request that
 * carries nothing but `Authorization: Bearer <token>`, and answers who it is. Create-only, never
 * stored.
 */
import { StatusError } from "@servicenet/api";
import type { AuthResponse, Authenticator } from "../../../authentication/authenticator/interfaces.ts";

type Body = Record<string, unknown>;

export interface TokenReviewContext {
  /** The server's request authenticator; undefined when authentication is off (the review is echoed). */
  authenticator: Authenticator | undefined;
  /** kube-apiserver's `--api-audiences` (default the service-account issuers): a review naming none asks for them. */
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
  // The review's audiences, else the API audiences; the authenticators judge the token for them.
  const requested = spec.audiences !== undefined && spec.audiences.length > 0 ? spec.audiences : (ctx.apiAudiences ?? []);
  const status: Body = {};
  let resp: AuthResponse | undefined;
  try {
    resp = await ctx.authenticator.authenticateRequest({
      headers: { authorization: `Bearer ${token}` },
      ...(requested.length > 0 ? { audiences: requested } : {}),
    });
  } catch (e) {
    status["error"] = e instanceof Error ? e.message : String(e);
  }
  // An authenticator that claims audiences the review did not ask for is a server bug (badAuthenticatorAuds).
  if (requested.length > 0 && resp !== undefined && (resp.audiences ?? []).every((a) => !requested.includes(a)))
    throw StatusError.internal("error validating audiences");
  // TokenReviewStatus field order: authenticated, user, audiences, error.
  const ordered: Body = {};
  if (resp !== undefined) ordered["authenticated"] = true;
  ordered["user"] = resp !== undefined ? userInfo(resp.user) : {};
  if (resp !== undefined && (resp.audiences ?? []).length > 0) ordered["audiences"] = resp.audiences;
  if (status["error"] !== undefined) ordered["error"] = status["error"];
  return { ...review, status: ordered };
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
