/**
 * The "review" APIs: authentication.k8s.io SelfSubjectReview (`kubectl auth whoami`) and TokenReview, and the
 * authorization.k8s.io/v1 access reviews (`kubectl auth can-i`, `can-i --list`), answered by the
 * server's authorizer (pkg/registry/authorization). They are create-only and never stored.
 */
import { StatusError } from "@servicenet/api";
import type { Authenticator } from "../authentication/authenticator/interfaces.ts";
import type { UserInfo } from "../authentication/user/user.ts";
import { tokenReview } from "../registry/authentication/tokenreview/storage.ts";
import {
  localSubjectAccessReview,
  selfSubjectAccessReview,
  selfSubjectRulesReview,
  subjectAccessReview,
  type ReviewContext as AuthorizationReviewContext,
} from "../registry/authorization/rest.ts";

/** What a review is answered with: the request's user, namespace, authorizer and authenticator. */
export type ReviewContext = AuthorizationReviewContext & {
  /** The server's request authenticator (TokenReview); undefined when authentication is off. */
  authenticator?: Authenticator | undefined;
  /** `--api-audiences`, which a TokenReview naming no audiences asks for. */
  apiAudiences?: readonly string[] | undefined;
  /** Mutating admission of the review, in place, before its REST answers (create.go). */
  admit?: ((obj: Record<string, unknown>) => Promise<void>) | undefined;
};

export interface ReviewDef {
  group: string;
  version: string;
  resource: string;
  kind: string;
  singular: string;
  /** LocalSubjectAccessReview is posted to a namespace. */
  namespaced?: boolean;
  answer(
    body: Record<string, unknown>,
    ctx: ReviewContext & { user: UserInfo },
  ): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** An authorization.k8s.io/v1 review. */
function authorizationReview(resource: string, kind: string, answer: ReviewDef["answer"], namespaced = false): ReviewDef {
  return { group: "authorization.k8s.io", version: "v1", resource, kind, singular: kind.toLowerCase(), namespaced, answer };
}

const anonymous: UserInfo = { name: "system:anonymous", uid: "", groups: ["system:unauthenticated"] };

/** SelfSubjectReview in one version: v1, or the v1beta1 and v1alpha1 that kubectl 1.27's `auth whoami` asks for. */
function selfSubjectReview(version: string): ReviewDef {
  return {
    group: "authentication.k8s.io",
    version,
    resource: "selfsubjectreviews",
    kind: "SelfSubjectReview",
    singular: "selfsubjectreview",
    // pkg/registry/authentication/selfsubjectreview/rest.go: validating admission before anything else.
    answer: async (body, { user, createValidation }) => {
      await createValidation?.(structuredClone(body));
      return {
        apiVersion: `authentication.k8s.io/${version}`,
        kind: "SelfSubjectReview",
        metadata: { creationTimestamp: null },
        // authenticationv1.UserInfo's uid and extra are omitempty.
        status: {
          userInfo: {
            username: user.name,
            ...(user.uid !== "" ? { uid: user.uid } : {}),
            groups: user.groups,
            ...(user.extra && Object.keys(user.extra).length > 0 ? { extra: user.extra } : {}),
          },
        },
      };
    },
  };
}

/** Every review the server can serve; `--runtime-config` picks (v1beta1 and v1alpha1 are off by default). */
export const servableReviews: readonly ReviewDef[] = [
  selfSubjectReview("v1"),
  {
    group: "authentication.k8s.io",
    version: "v1",
    resource: "tokenreviews",
    kind: "TokenReview",
    singular: "tokenreview",
    answer: (body, ctx) =>
      tokenReview(body, {
        authenticator: ctx.authenticator,
        namespace: ctx.namespace,
        createValidation: ctx.createValidation,
        ...(ctx.apiAudiences ? { apiAudiences: ctx.apiAudiences } : {}),
      }),
  },
  authorizationReview("selfsubjectaccessreviews", "SelfSubjectAccessReview", selfSubjectAccessReview),
  authorizationReview("subjectaccessreviews", "SubjectAccessReview", subjectAccessReview),
  authorizationReview("localsubjectaccessreviews", "LocalSubjectAccessReview", localSubjectAccessReview, true),
  authorizationReview("selfsubjectrulesreviews", "SelfSubjectRulesReview", selfSubjectRulesReview),
  selfSubjectReview("v1beta1"),
  selfSubjectReview("v1alpha1"),
];

/** The reviews served by default (pkg/controlplane/instance.go: authentication v1beta1 and v1alpha1 are disabled by default). */
export const reviewTable: readonly ReviewDef[] = servableReviews.filter((r) => /^v\d+$/.test(r.version));

/** True for the path of a review API. */
export function isReview(group: string, version: string, resource: string, reviews: readonly ReviewDef[] = reviewTable): boolean {
  return reviews.some((r) => r.group === group && r.version === version && r.resource === resource);
}

/** The review served at POST /apis/<group>/<version>/[namespaces/<ns>/]<resource>, or undefined. */
export function findReview(
  group: string,
  version: string,
  resource: string,
  namespaced: boolean,
  reviews: readonly ReviewDef[] = reviewTable,
): ReviewDef | undefined {
  return reviews.find(
    (r) => r.group === group && r.version === version && r.resource === resource && (r.namespaced ?? false) === namespaced,
  );
}

/** Answers a review's create with the request's user (anonymous without one). */
export async function answerReview(def: ReviewDef, body: unknown, ctx: ReviewContext): Promise<Record<string, unknown>> {
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw StatusError.badRequest(`the object provided is unrecognized (must be of type ${def.kind})`);
  let review = body as Record<string, unknown>;
  if (ctx.admit !== undefined) {
    // Admission sees the review as decoded: typed as the served version, with its metadata.
    const apiVersion = def.group === "" ? def.version : `${def.group}/${def.version}`;
    review = { ...review, apiVersion, kind: def.kind, metadata: review["metadata"] ?? {} };
    await ctx.admit(review);
  }
  return def.answer(review, { ...ctx, user: ctx.user ?? anonymous });
}
