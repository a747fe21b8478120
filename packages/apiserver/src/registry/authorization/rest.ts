/**
 * pkg/registry/authorization/{selfsubjectaccessreview,subjectaccessreview,localsubjectaccessreview,
 * selfsubjectrulesreview}/rest.go: the authorization.k8s.io/v1 reviews, answered by the server's
 * authorizer and rule resolver (pkg/registry/authorization/util/helpers.go for the attributes).
 */
import { StatusError } from "@servicenet/api";
import type { UserInfo } from "../../authentication/user/user.ts";
import { attributes, type Attributes, type Authorizer, type RuleResolver } from "../../authorization/authorizer/interfaces.ts";
import {
  validateAccessReview,
  validateLocalSubjectAccessReview,
  type NonResourceAttributes,
  type ResourceAttributes,
  type ReviewMeta,
  type SubjectAccessReviewSpec,
} from "./validation.ts";
import { buildEvaluationError, reviewSelectorAttributes } from "./selectors.ts";

/** What a review is answered with. */
export interface ReviewContext {
  user: UserInfo | undefined;
  /** The request's namespace (LocalSubjectAccessReview's path). */
  namespace: string;
  authorizer: Authorizer | undefined;
  ruleResolver: RuleResolver | undefined;
  /** The AuthorizeWithSelectors feature gate (default on): the spec's selectors reach the authorizer. */
  authorizeWithSelectors?: boolean | undefined;
  /** Validating admission of the review (rest.ValidateObjectFunc), after the review's own checks; throws to refuse. */
  createValidation?: ((obj: Record<string, unknown>) => Promise<void>) | undefined;
}

type Body = Record<string, unknown>;

const specOf = (body: Body): SubjectAccessReviewSpec => body["spec"] ?? {};
const metaOf = (body: Body): ReviewMeta | undefined => body["metadata"] as ReviewMeta | undefined;

/** ResourceAttributesFrom: an empty version means every version; the selectors with AuthorizeWithSelectors. */
export function resourceAttributesFrom(user: UserInfo, a: ResourceAttributes, authorizeWithSelectors = true): Attributes {
  return {
    user,
    verb: a.verb ?? "",
    namespace: a.namespace ?? "",
    apiGroup: a.group ?? "",
    apiVersion: (a.version ?? "") === "" ? "*" : a.version!,
    resource: a.resource ?? "",
    subresource: a.subresource ?? "",
    name: a.name ?? "",
    resourceRequest: true,
    path: "",
    ...(authorizeWithSelectors ? reviewSelectorAttributes(a) : {}),
  };
}

/** NonResourceAttributesFrom. */
export function nonResourceAttributesFrom(user: UserInfo, a: NonResourceAttributes): Attributes {
  return attributes({ user, verb: a.verb ?? "", path: a.path ?? "" });
}

function attributesFrom(user: UserInfo, spec: SubjectAccessReviewSpec, ctx: ReviewContext): Attributes {
  return spec.resourceAttributes
    ? resourceAttributesFrom(user, spec.resourceAttributes, ctx.authorizeWithSelectors ?? true)
    : nonResourceAttributesFrom(user, spec.nonResourceAttributes ?? {});
}

/** The status every access review answers with (SubjectAccessReviewStatus). */
async function decide(authorizer: Authorizer | undefined, attrs: Attributes): Promise<Body> {
  // Without an authorizer the server allows everything, and says so.
  if (authorizer === undefined) return { allowed: true };
  const r = await authorizer.authorize(attrs);
  const evaluationError = buildEvaluationError(r.error, attrs);
  return {
    allowed: r.decision === "Allow",
    ...(r.decision === "Deny" ? { denied: true } : {}),
    ...(r.reason !== "" ? { reason: r.reason } : {}),
    ...(evaluationError !== "" ? { evaluationError } : {}),
  };
}

function answer(kind: string, body: Body, status: Body): Body {
  return {
    kind,
    apiVersion: "authorization.k8s.io/v1",
    metadata: { ...(metaOf(body) ?? {}), creationTimestamp: null },
    spec: body["spec"] ?? {},
    status,
  };
}

function requireUser(ctx: ReviewContext): UserInfo {
  if (ctx.user === undefined) throw StatusError.badRequest("no user present on request");
  return ctx.user;
}

const invalid = (kind: string, errs: ReturnType<typeof validateAccessReview>): StatusError =>
  StatusError.invalid({ group: "authorization.k8s.io", kind }, "", errs);

/** SelfSubjectAccessReview: may the requesting user do this? */
export async function selfSubjectAccessReview(body: Body, ctx: ReviewContext): Promise<Body> {
  const spec = specOf(body);
  const errs = validateAccessReview(metaOf(body), spec, true);
  if (errs.length > 0) throw invalid("SelfSubjectAccessReview", errs);
  const user = requireUser(ctx);
  await ctx.createValidation?.(structuredClone(body));
  return answer("SelfSubjectAccessReview", body, await decide(ctx.authorizer, attributesFrom(user, spec, ctx)));
}

function specUser(spec: SubjectAccessReviewSpec): UserInfo {
  return { name: spec.user ?? "", uid: spec.uid ?? "", groups: spec.groups ?? [], ...(spec.extra ? { extra: spec.extra } : {}) };
}

/** SubjectAccessReview: may the user of the spec do this? */
export async function subjectAccessReview(body: Body, ctx: ReviewContext): Promise<Body> {
  const spec = specOf(body);
  const errs = validateAccessReview(metaOf(body), spec, false);
  if (errs.length > 0) throw invalid("SubjectAccessReview", errs);
  await ctx.createValidation?.(structuredClone(body));
  return answer("SubjectAccessReview", body, await decide(ctx.authorizer, attributesFrom(specUser(spec), spec, ctx)));
}

/** LocalSubjectAccessReview: a SubjectAccessReview within the request's namespace. */
export async function localSubjectAccessReview(body: Body, ctx: ReviewContext): Promise<Body> {
  const spec = specOf(body);
  const errs = validateLocalSubjectAccessReview(metaOf(body), spec);
  if (errs.length > 0) throw invalid("LocalSubjectAccessReview", errs);
  if (ctx.namespace === "") throw StatusError.badRequest(`namespace is required on this type: ${ctx.namespace}`);
  if (ctx.namespace !== (metaOf(body)?.namespace ?? ""))
    throw StatusError.badRequest(`spec.resourceAttributes.namespace must match namespace: ${ctx.namespace}`);
  await ctx.createValidation?.(structuredClone(body));
  return answer("LocalSubjectAccessReview", body, await decide(ctx.authorizer, attributesFrom(specUser(spec), spec, ctx)));
}

/** SelfSubjectRulesReview: the requesting user's rules in `spec.namespace` (`kubectl auth can-i --list`). */
export async function selfSubjectRulesReview(body: Body, ctx: ReviewContext): Promise<Body> {
  const user = requireUser(ctx);
  const namespace = ((body["spec"] ?? {}) as { namespace?: string }).namespace ?? "";
  if (namespace === "") throw StatusError.badRequest("no namespace on request");
  // Upstream's REST.Create takes no createValidation here: only mutating admission sees it.
  const rules = ctx.ruleResolver
    ? await ctx.ruleResolver.rulesFor(user, namespace)
    : {
        resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], resourceNames: [] }],
        nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
        incomplete: false,
      };
  const omitEmpty = (k: string, v: string[]): Body => (v.length > 0 ? { [k]: v } : {});
  return {
    kind: "SelfSubjectRulesReview",
    apiVersion: "authorization.k8s.io/v1",
    metadata: { creationTimestamp: null },
    spec: {},
    status: {
      resourceRules: rules.resourceRules.map((r) => ({
        verbs: r.verbs,
        ...omitEmpty("apiGroups", r.apiGroups),
        ...omitEmpty("resources", r.resources),
        ...omitEmpty("resourceNames", r.resourceNames),
      })),
      nonResourceRules: rules.nonResourceRules.map((r) => ({ verbs: r.verbs, ...omitEmpty("nonResourceURLs", r.nonResourceURLs) })),
      incomplete: rules.incomplete,
      ...(rules.error !== undefined ? { evaluationError: rules.error } : {}),
    },
  };
}
