/**
 * The authorization filter (staging/src/k8s.io/apiserver/pkg/endpoints/filters/authorization.go):
 * every request, resource or not, is turned into authorizer attributes (GetAuthorizerAttributes)
 * and refused with upstream's Forbidden Status (endpoints/handlers/responsewriters/errors.go)
 * unless the authorizer allows it.
 */
import { StatusError } from "@servicenet/api";
import { anonymousUser, type UserInfo } from "../../authentication/user/user.ts";
import { attributes, type Attributes, type Authorizer } from "../../authorization/authorizer/interfaces.ts";
import { selectorAttributes } from "../../authorization/authorizer/selectors.ts";
import { sanitizeErrorText } from "../http.ts";
import { parseRequestInfo, type RequestInfo } from "../request-info.ts";
import { writeError, type Filter } from "./context.ts";

/**
 * GetAuthorizerAttributes: resource requests carry the request info's verb, group, version,
 * namespace, resource, subresource and name; everything else is a non-resource request with the
 * lower-case HTTP method as verb and the raw URL path. `requestInfo` is the path's request info
 * when the caller has it already (the server parses it once per request). With
 * AuthorizeWithSelectors (`authorizeWithSelectors`, default on as in 1.33) a list, watch or
 * deletecollection carries its `fieldSelector` and `labelSelector` too (request/requestinfo.go
 * verbsWithSelectors), but not one addressed through the deprecated `/watch/` prefix.
 */
export function getAuthorizerAttributes(
  user: UserInfo | undefined,
  method: string,
  rawPath: string,
  query: URLSearchParams,
  requestInfo: () => RequestInfo | undefined = () => parseRequestInfo(rawPath, method, query),
  authorizeWithSelectors = true,
): Attributes {
  const base: Attributes = attributes({ user, verb: method.toLowerCase(), path: rawPath });
  const info = requestInfo();
  if (info === undefined || info.verb === "") return base;
  let name = info.name;
  // A list or watch of one object by field selector is about that name (request/requestinfo.go).
  if (name === "" && (info.verb === "list" || info.verb === "watch")) name = fieldSelectorName(query.get("fieldSelector") ?? "");
  // A Namespace is its own namespace: `get namespaces` in a RoleBinding of "ns" reads namespace "ns".
  const namespace = info.namespace ?? (info.resource === "namespaces" ? info.name : "");
  return {
    ...base,
    verb: info.verb,
    namespace,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource,
    name,
    resourceRequest: true,
    ...(authorizeWithSelectors && verbsWithSelectors.has(info.verb) && !info.watchPath
      ? selectorAttributes(query.get("fieldSelector") ?? undefined, query.get("labelSelector") ?? undefined, { omitEmpty: true })
      : {}),
  };
}

const verbsWithSelectors: ReadonlySet<string> = new Set(["list", "watch", "deletecollection"]);

/** fields.Selector.RequiresExactMatch("metadata.name") on a field selector string. */
function fieldSelectorName(selector: string): string {
  for (const term of selector.split(",")) {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (m && !m[1]!.includes("/") && m[1] !== "." && m[1] !== "..") return m[1]!;
  }
  return "";
}

/** forbiddenMessage (responsewriters/errors.go). */
export function forbiddenMessage(a: Attributes): string {
  const username = a.user?.name ?? "";
  if (!a.resourceRequest) return `User ${JSON.stringify(username)} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  const resource = a.subresource !== "" ? `${a.resource}/${a.subresource}` : a.resource;
  const what = `User ${JSON.stringify(username)} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)}`;
  return a.namespace !== "" ? `${what} in the namespace ${JSON.stringify(a.namespace)}` : `${what} at the cluster scope`;
}

/** ForbiddenStatusError: `services is forbidden: User "alice" cannot list ...[: reason]`, details name/group/kind. */
export function forbiddenStatusError(a: Attributes, reason: string): StatusError {
  // responsewriters.Forbidden sanitizes the message it builds (user, path and names come from the request), not the reason.
  const message = sanitizeErrorText(forbiddenMessage(a));
  const msg = reason === "" ? message : `${message}: ${reason}`;
  return StatusError.forbidden({ group: a.apiGroup, resource: a.resource }, a.name, msg);
}

/**
 * WithAuthorization: resolves when the request may go on and throws the Forbidden Status (or an
 * internal error when the authorizer failed without allowing) otherwise. Without an authorizer
 * everything is allowed; a request without a user is the anonymous user.
 */
export async function authorizeRequest(
  authorizer: Authorizer | undefined,
  user: UserInfo | undefined,
  method: string,
  rawPath: string,
  query: URLSearchParams,
  requestInfo?: () => RequestInfo | undefined,
  annotate?: (annotations: Record<string, string>) => void,
  authorizeWithSelectors = true,
): Promise<void> {
  if (authorizer === undefined) return;
  const attrs = getAuthorizerAttributes(user ?? anonymousUser, method, rawPath, query, requestInfo, authorizeWithSelectors);
  const r = await authorizer.authorize(attrs);
  // An authorizer like RBAC can meet evaluation errors and still allow: the decision comes first.
  if (r.decision === "Allow") {
    annotate?.({ [decisionAnnotationKey]: "allow", [reasonAnnotationKey]: r.reason });
    return;
  }
  if (r.error !== undefined) {
    annotate?.({ [reasonAnnotationKey]: "internal error" });
    throw StatusError.internal(r.error);
  }
  annotate?.({ [decisionAnnotationKey]: "forbid", [reasonAnnotationKey]: r.reason });
  throw forbiddenStatusError(attrs, r.reason);
}

/** The audit annotations WithAuthorization adds (endpoints/filters/authorization.go). */
export const decisionAnnotationKey = "authorization.k8s.io/decision";
export const reasonAnnotationKey = "authorization.k8s.io/reason";

/**
 * The filter: the request goes on when {@link authorizeRequest} allows it, and is answered with
 * its refusal otherwise; the decision and reason become audit annotations. `authorizeWithSelectors`
 * is the AuthorizeWithSelectors feature gate.
 */
export function withAuthorization(authorizer: Authorizer | undefined, authorizeWithSelectors = true): Filter {
  return (next) => async (ctx) => {
    try {
      await authorizeRequest(
        authorizer,
        ctx.user,
        ctx.req.method ?? "GET",
        ctx.url.pathname,
        ctx.url.searchParams,
        ctx.requestInfo,
        (a) => {
          ctx.audit.annotations = { ...ctx.audit.annotations, ...a };
        },
        authorizeWithSelectors,
      );
    } catch (e) {
      // The audit record of a refused request still names the object it was about.
      try {
        const refused = ctx.requestInfo();
        if (refused && refused.resource !== "") ctx.audit.info = refused;
      } catch {
        // A path without request info: the error below says why.
      }
      writeError(ctx, e);
      return;
    }
    return next(ctx);
  };
}
