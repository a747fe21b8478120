/**
 * The two "review" APIs kubectl's `auth` commands call: authorization.k8s.io/v1
 * SelfSubjectAccessReview (`kubectl auth can-i`) and authentication.k8s.io/v1 SelfSubjectReview
 * (`kubectl auth whoami`). They are create-only and never stored. servicenet has no authorizer:
 * every authenticated user is allowed everything, and the review says so.
 */
import { StatusError } from "@servicenet/api";
import type { UserInfo } from "../authentication/user/user.ts";

export interface ReviewDef {
  group: string;
  version: string;
  resource: string;
  kind: string;
  singular: string;
  answer(body: Record<string, unknown>, user: UserInfo): Record<string, unknown>;
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
    answer: (_body, user) => ({
      apiVersion: `authentication.k8s.io/${version}`,
      kind: "SelfSubjectReview",
      metadata: { creationTimestamp: null },
      status: { userInfo: { username: user.name, uid: user.uid, groups: user.groups } },
    }),
  };
}

/** Every review the server can serve; `--runtime-config` picks (v1beta1 and v1alpha1 are off by default). */
export const servableReviews: readonly ReviewDef[] = [
  selfSubjectReview("v1"),
  {
    group: "authorization.k8s.io",
    version: "v1",
    resource: "selfsubjectaccessreviews",
    kind: "SelfSubjectAccessReview",
    singular: "selfsubjectaccessreview",
    answer: (body) => ({
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectAccessReview",
      metadata: { creationTimestamp: null },
      spec: body["spec"] ?? {},
      status: { allowed: true, reason: "servicenet has no authorizer: every authenticated user may do everything" },
    }),
  },
  selfSubjectReview("v1beta1"),
  selfSubjectReview("v1alpha1"),
];

/** The reviews served by default (pkg/controlplane/instance.go: authentication v1beta1 and v1alpha1 are disabled by default). */
export const reviewTable: readonly ReviewDef[] = servableReviews.filter((r) => /^v\d+$/.test(r.version));

/** True for the path of a review API. */
export function isReview(group: string, version: string, resource: string, reviews: readonly ReviewDef[] = reviewTable): boolean {
  return reviews.some((r) => r.group === group && r.version === version && r.resource === resource);
}

/** Answers POST /apis/<group>/<version>/<resource> for a review, or undefined for other paths. */
export function answerReview(
  group: string,
  version: string,
  resource: string,
  body: unknown,
  user: UserInfo | undefined,
  reviews: readonly ReviewDef[] = reviewTable,
): Record<string, unknown> | undefined {
  const def = reviews.find((r) => r.group === group && r.version === version && r.resource === resource);
  if (!def) return undefined;
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw StatusError.badRequest(`the object provided is unrecognized (must be of type ${def.kind})`);
  return def.answer(body as Record<string, unknown>, user ?? anonymous);
}
