/**
 * The resource paths (upstream's go-restful container, staging/src/k8s.io/apiserver/pkg/endpoints/
 * installer.go): the review APIs' one POST route each, then every served resource through the
 * REST handler (codec, generic store, storage). A path inside a served group version that names
 * nothing is go-restful's 404; any other path is the not-found handler's.
 */
import { StatusError } from "@servicenet/api";
import type { Authenticator } from "../authentication/authenticator/interfaces.ts";
import type { Authorizer, RuleResolver } from "../authorization/authorizer/interfaces.ts";
import { parseBody } from "./codec.ts";
import { apiResourceList } from "./discovery.ts";
import type { Handler, RequestContext } from "./filters/context.ts";
import { readBody, send } from "./http.ts";
import { bodyFormat, negotiateOutput } from "./negotiation.ts";
import type { RequestInfo } from "./request-info.ts";
import { findResource, type ResourceDef } from "./resources.ts";
import type { RESTStorage } from "./rest-storage.ts";
import { handleResource } from "./rest.ts";
import { answerReview, findReview, type ReviewDef } from "./reviews.ts";
import { methodNotAllowed, routeNotFound } from "./routes.ts";
import type { AdmissionInterface } from "../admission/interfaces.ts";
import type { KubeObject } from "../storage/index.ts";
import { RequestAdmission } from "./admission.ts";
import { parseDryRun } from "./query.ts";
import type { CRDHandler } from "../apiextensions/apiserver/customresource-handler.ts";

/** What the resource handler serves. */
export interface ResourceHandlerConfig {
  resources: readonly ResourceDef[];
  reviews: readonly ReviewDef[];
  registry: RESTStorage;
  authorizer?: Authorizer | undefined;
  authorizerRuleResolver?: RuleResolver | undefined;
  /** The AuthorizeWithSelectors feature gate (default on), for the access reviews. */
  authorizeWithSelectors?: boolean | undefined;
  authenticator?: Authenticator | undefined;
  /** `--api-audiences` (default the service-account issuers), for TokenReview. */
  apiAudiences?: readonly string[] | undefined;
  shutdown: AbortSignal;
  /** The delegate tried when no built-in resource matches: the custom-resource handler. */
  customResources?: Pick<CRDHandler, "lookup">;
  /** The admission chain every resource request goes through. */
  admission?: AdmissionInterface | undefined;
}

const notFound = (): StatusError => new StatusError("NotFound", "the server could not find the requested resource");

/** The handler of every path the non-resource mux does not claim; throws a StatusError to refuse. */
export function resourceHandler(c: ResourceHandlerConfig): Handler {
  return async (ctx) => {
    const info = ctx.requestInfo();
    if (!info) throw notFound();
    ctx.audit.info = info;
    const review = findReview(info.group, info.version, info.resource, info.namespace !== undefined, c.reviews);
    if (review) return serveReview(c, ctx, info, review);
    const builtin = findResource(info.group, info.version, info.resource, c.resources);
    // No built-in route matched: the chain's delegate, the custom-resource handler, tries.
    const custom = builtin ? undefined : c.customResources?.lookup(info.group, info.version, info.resource);
    const def = builtin ?? custom?.def;
    // Inside a served group version go-restful answers an unknown path; elsewhere the not-found handler.
    if (!def) throw apiResourceList(c.resources, info.group, info.version, c.reviews) !== undefined ? routeNotFound() : notFound();
    const method = ctx.req.method ?? "";
    const routed = (): void => {
      ctx.labels = {
        verb: metricVerb(info.verb, method),
        group: info.group,
        version: info.version,
        resource: info.resource,
        subresource: info.subresource,
        scope: info.name !== "" ? "resource" : info.namespace !== undefined ? "namespace" : "cluster",
      };
    };
    ctx.code = await handleResource({
      onRouted: routed,
      req: ctx.req,
      res: ctx.res,
      info,
      def,
      store: custom?.store ?? c.registry.storeFor(def),
      query: ctx.url.searchParams,
      format: negotiateOutput(ctx.req.headers.accept),
      shutdown: c.shutdown,
      ...(ctx.user ? { user: ctx.user } : {}),
      ...(c.admission ? { admission: c.admission } : {}),
      audit: ctx.audit,
      ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    });
  };
}

/** A review is one POST route on its collection path, answered 201 without storing anything. */
async function serveReview(c: ResourceHandlerConfig, ctx: RequestContext, info: RequestInfo, review: ReviewDef): Promise<void> {
  if (info.name !== "" || info.watchPath) throw routeNotFound();
  if (info.verb !== "create") throw methodNotAllowed();
  const format = bodyFormat(ctx.req.headers["content-type"]);
  const body = parseBody(await readBody(ctx.req), format);
  const warnings: string[] = [];
  const adm = reviewAdmission(c, ctx, info, review, warnings);
  const { createValidation } = adm?.storeHooks() ?? {};
  const answer = await answerReview(review, body, {
    user: ctx.user,
    namespace: info.namespace ?? "",
    authorizer: c.authorizer,
    ruleResolver: c.authorizerRuleResolver,
    authorizeWithSelectors: c.authorizeWithSelectors,
    authenticator: c.authenticator,
    apiAudiences: c.apiAudiences,
    ...(adm ? { admit: (obj) => adm.admit(obj as unknown as KubeObject, undefined) } : {}),
    ...(createValidation ? { createValidation: (obj) => createValidation(obj as unknown as KubeObject) } : {}),
  });
  adm?.report();
  send(ctx.res, 201, answer, "json", warnings);
  ctx.code = 201;
  const scope = info.namespace !== undefined ? "namespace" : "cluster";
  ctx.labels = {
    verb: "POST",
    group: info.group,
    version: info.version,
    resource: info.resource,
    subresource: ctx.labels.subresource,
    scope,
  };
}

/** A review's admission (create.go with the review's REST as the creater), or none without a chain. */
function reviewAdmission(
  c: ResourceHandlerConfig,
  ctx: RequestContext,
  info: RequestInfo,
  review: ReviewDef,
  warnings: string[],
): RequestAdmission | undefined {
  if (c.admission === undefined) return undefined;
  const def = {
    group: review.group,
    version: review.version,
    resource: review.resource,
    kind: review.kind,
    namespaced: review.namespaced ?? false,
  };
  const r = {
    info,
    def,
    admission: c.admission,
    audit: ctx.audit,
    ...(ctx.user ? { user: ctx.user } : {}),
    ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
  };
  return new RequestAdmission(r, "CREATE", parseDryRun(ctx.url.searchParams), warnings);
}

/** Upstream's metric verb: LIST and WATCH split from GET, APPLY from PATCH. */
function metricVerb(verb: string, method: string): string {
  if (verb === "list") return "LIST";
  if (verb === "watch") return "WATCH";
  return method;
}
