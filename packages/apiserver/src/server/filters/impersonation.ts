/**
 * The impersonation filter (staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go):
 * `Impersonate-User`, `-Uid`, `-Group` and `-Extra-<key>` headers switch the request's user once
 * the authorizer allows the requester the `impersonate` verb on each (users, uids, groups,
 * userextras/<key>; serviceaccounts for `system:serviceaccount:<ns>:<name>`). It runs between
 * authentication and authorization, so everything after sees the impersonated user.
 */
import { allAuthenticated, allUnauthenticated, anonymous, type UserInfo } from "../../authentication/user/user.ts";
import { attributes, type Authorizer } from "../../authorization/authorizer/interfaces.ts";
import { internalErrorText } from "../http.ts";
import { forbiddenStatusError } from "./authorization.ts";
import { writeError, type Filter } from "./context.ts";

export const impersonateUserHeader = "impersonate-user";
export const impersonateUIDHeader = "impersonate-uid";
export const impersonateGroupHeader = "impersonate-group";
export const impersonateUserExtraHeaderPrefix = "impersonate-extra-";

/** One thing to impersonate (upstream's v1.ObjectReference with Kind User/ServiceAccount/Group/UserExtra/UID). */
export interface ImpersonationRequest {
  kind: "User" | "ServiceAccount" | "Group" | "UserExtra" | "UID";
  namespace?: string;
  name: string;
  /** The extra key of a UserExtra (upstream keeps it in FieldPath). */
  fieldPath?: string;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const values = (h: Headers, name: string): string[] => {
  const v = h[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};

/** serviceaccount.SplitUsername: `system:serviceaccount:<ns>:<name>` with both parts non-empty. */
function splitServiceAccount(username: string): { namespace: string; name: string } | undefined {
  const prefix = "system:serviceaccount:";
  if (!username.startsWith(prefix)) return undefined;
  const parts = username.slice(prefix.length).split(":");
  if (parts.length !== 2 || parts[0] === "" || parts[1] === "") return undefined;
  return { namespace: parts[0]!, name: parts[1]! };
}

/** unescapeExtraKey: extra keys are percent-encoded in header names; a bad escape is kept as is. */
function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** Go's %v of the []v1.ObjectReference list in upstream's BadRequest message. */
function formatRequests(rs: readonly ImpersonationRequest[]): string {
  const one = (r: ImpersonationRequest): string => {
    const apiVersion = r.kind === "UserExtra" || r.kind === "UID" ? "authentication.k8s.io/v1" : "";
    return `{${r.kind} ${r.namespace ?? ""} ${r.name}  ${apiVersion}  ${r.fieldPath ?? ""}}`;
  };
  return `[${rs.map(one).join(" ")}]`;
}

/** The headers ask for groups, extras or a uid without a user: upstream answers a plain-text 500 (responsewriters.InternalError). */
export class ImpersonationRequestError extends Error {
  override readonly name = "ImpersonationRequestError";
}

/** buildImpersonationRequests: what the headers ask for; groups, extras or a uid without a user are an {@link ImpersonationRequestError}. */
export function buildImpersonationRequests(headers: Headers): ImpersonationRequest[] {
  const out: ImpersonationRequest[] = [];
  const requestedUser = values(headers, impersonateUserHeader)[0] ?? "";
  const hasUser = requestedUser.length > 0;
  if (hasUser) {
    const sa = splitServiceAccount(requestedUser);
    out.push(sa ? { kind: "ServiceAccount", ...sa } : { kind: "User", name: requestedUser });
  }
  const groups = values(headers, impersonateGroupHeader);
  for (const g of groups) out.push({ kind: "Group", name: g });
  let hasUserExtra = false;
  for (const [name, v] of Object.entries(headers)) {
    if (!name.toLowerCase().startsWith(impersonateUserExtraHeaderPrefix)) continue;
    hasUserExtra = true;
    const key = unescapeExtraKey(name.toLowerCase().slice(impersonateUserExtraHeaderPrefix.length));
    for (const value of v === undefined ? [] : Array.isArray(v) ? v : [v]) out.push({ kind: "UserExtra", name: value, fieldPath: key });
  }
  const uid = values(headers, impersonateUIDHeader)[0] ?? "";
  const hasUID = uid.length > 0;
  if (hasUID) out.push({ kind: "UID", name: uid });
  if ((groups.length > 0 || hasUserExtra || hasUID) && !hasUser)
    throw new ImpersonationRequestError(`requested ${formatRequests(out)} without impersonating a user`);
  return out;
}

/**
 * WithImpersonation: the user the request acts as (the requester itself without impersonation
 * headers). Throws upstream's Forbidden Status or an {@link ImpersonationRequestError}.
 */
export async function impersonate(authorizer: Authorizer, requestor: UserInfo, headers: Headers): Promise<UserInfo> {
  const requests = buildImpersonationRequests(headers);
  if (requests.length === 0) return requestor;
  // Groups given are the authority, system:authenticated/unauthenticated included.
  const groupsSpecified = values(headers, impersonateGroupHeader).length > 0;
  let username = "";
  let uid = "";
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    const a = attributes({ user: requestor, verb: "impersonate", name: r.name, resourceRequest: true });
    switch (r.kind) {
      case "ServiceAccount":
        a.resource = "serviceaccounts";
        a.namespace = r.namespace ?? "";
        username = `system:serviceaccount:${r.namespace}:${r.name}`;
        // A service account's groups are a fixed mapping (serviceaccount.MakeGroupNames).
        if (!groupsSpecified) groups = ["system:serviceaccounts", `system:serviceaccounts:${r.namespace}`];
        break;
      case "User":
        a.resource = "users";
        username = r.name;
        break;
      case "Group":
        a.resource = "groups";
        groups.push(r.name);
        break;
      case "UserExtra":
        a.apiGroup = "authentication.k8s.io";
        a.resource = "userextras";
        a.subresource = r.fieldPath ?? "";
        (extra[r.fieldPath ?? ""] ??= []).push(r.name);
        break;
      case "UID":
        a.apiGroup = "authentication.k8s.io";
        a.resource = "uids";
        uid = r.name;
        break;
    }
    let result;
    try {
      result = await authorizer.authorize(a);
    } catch {
      throw forbiddenStatusError(a, "");
    }
    if (result.decision !== "Allow" || result.error !== undefined) throw forbiddenStatusError(a, result.reason);
  }
  if (username !== anonymous) {
    // A non-anonymous user is in system:authenticated unless system:(un)authenticated was given.
    if (!groups.some((g) => g === allAuthenticated || g === allUnauthenticated)) groups = [...groups, allAuthenticated];
  } else if (!groups.includes(allUnauthenticated)) groups = [...groups, allUnauthenticated];
  return { name: username, uid, groups, ...(Object.keys(extra).length > 0 ? { extra } : {}) };
}

const alwaysAllow: Authorizer = { authorize: () => ({ decision: "Allow", reason: "" }) };

/**
 * The filter: an authenticated request with impersonation headers goes on as the user they name
 * (`ctx.user`, and the audit's impersonatedUser), or is refused. Without an authorizer everything
 * is allowed (AlwaysAllow), impersonation too.
 */
export function withImpersonation(authorizer: Authorizer | undefined): Filter {
  return (next) => async (ctx) => {
    if (ctx.user === undefined || !Object.keys(ctx.req.headers).some((h) => h.startsWith("impersonate-"))) return next(ctx);
    try {
      ctx.user = await impersonate(authorizer ?? alwaysAllow, ctx.user, ctx.req.headersDistinct);
    } catch (e) {
      if (e instanceof ImpersonationRequestError) ctx.code = internalErrorText(ctx.res, ctx.req.url ?? "", e);
      else writeError(ctx, e);
      return;
    }
    ctx.audit.impersonatedUser = ctx.user;
    return next(ctx);
  };
}
