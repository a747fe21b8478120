/**
 * Delegated authentication and authorization of the controller-manager's own endpoints, as
 * kube-controller-manager's `DelegatingAuthenticationOptions` / `DelegatingAuthorizationOptions`
 * (k8s.io/apiserver `pkg/authentication/authenticatorfactory/delegating.go`,
 * `pkg/authorization/authorizerfactory/delegating.go`): a bearer token is reviewed by the
 * apiserver (TokenReview), a request without one is anonymous, and a request is allowed for
 * `system:masters`, on an always-allowed path (`pkg/authorization/path`), or when the apiserver
 * answers its SubjectAccessReview. Answers are cached 10 s, as upstream's defaults.
 */
import type { IncomingMessage } from "node:http";
import type { KubeConfig } from "@kubernetes/client-node";
import { StatusError } from "@servicenet/api";
import { newRESTClient } from "@servicenet/client/rest";
import { realClock, type Clock } from "@servicenet/component-base/clock";

/** upstream `user.Info`. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

const anonymous: UserInfo = { username: "system:anonymous", groups: ["system:unauthenticated"] };
/** upstream's `CacheTTL` / `DenyCacheTTL` (authorization) and `CacheTTL` (authentication). */
const cacheTTLMs = 10_000;

/** A map whose entries expire (upstream's cached token authenticator and SAR webhook cache). */
function ttlCache<V>(clock: Clock): { get(k: string): V | undefined; set(k: string, v: V): void } {
  const m = new Map<string, { at: number; v: V }>();
  return {
    get(k) {
      const e = m.get(k);
      if (e === undefined || clock.now() - e.at >= cacheTTLMs) return undefined;
      return e.v;
    },
    set(k, v) {
      // Expired entries go when the map grows, so it stays bounded by ten seconds of callers.
      if (m.size >= 1024) for (const [key, e] of m) if (clock.now() - e.at >= cacheTTLMs) m.delete(key);
      m.set(k, { at: clock.now(), v });
    },
  };
}

interface TokenReviewStatus {
  status?: { authenticated?: boolean; user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> } };
}

/**
 * The request's user: the bearer token's (reviewed by the apiserver), else anonymous. A token the
 * apiserver does not accept is a 401 (upstream `bearertoken`'s invalid token: never anonymous).
 */
export function delegatingAuthenticator(kubeConfig: KubeConfig, clock: Clock = realClock): (req: IncomingMessage) => Promise<UserInfo> {
  const client = newRESTClient(kubeConfig);
  const cache = ttlCache<UserInfo | null>(clock);
  return async (req) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
    if (m === null) return anonymous;
    const token = m[1]!;
    let user = cache.get(token);
    if (user === undefined) {
      const review = await client.request<TokenReviewStatus>("POST", "/apis/authentication.k8s.io/v1/tokenreviews", {
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenReview",
        spec: { token },
      });
      const u = review.status?.user;
      user =
        review.status?.authenticated === true && u?.username !== undefined
          ? { username: u.username, ...(u.uid ? { uid: u.uid } : {}), groups: u.groups ?? [], ...(u.extra ? { extra: u.extra } : {}) }
          : null;
      cache.set(token, user);
    }
    if (user === null) throw StatusError.unauthorized();
    // upstream group.NewAuthenticatedGroupAdder.
    return user.groups.includes("system:authenticated") ? user : { ...user, groups: [...user.groups, "system:authenticated"] };
  };
}

/** upstream `path.NewAuthorizer`: exact paths, or prefixes ending in `*`; the leading `/` is optional. */
export function alwaysAllowPathsMatcher(paths: readonly string[]): (path: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (let p of paths) {
    p = p.replace(/^\//, "");
    if (p.slice(0, -1).includes("*")) throw new Error(`only trailing * allowed in ${JSON.stringify(p)}`);
    if (p.endsWith("*")) prefixes.push(p.slice(0, -1));
    else exact.add(p);
  }
  return (path) => {
    const p = path.replace(/^\//, "");
    return exact.has(p) || prefixes.some((x) => p.startsWith(x));
  };
}

interface SubjectAccessReviewStatus {
  status?: { allowed?: boolean; denied?: boolean; reason?: string };
}

/**
 * Authorizes a non-resource request (`verb` the lower-case method, as upstream's RequestInfo for a
 * path outside the API); rejects with upstream's 403 `forbidden: User "x" cannot get path "/metrics"`.
 */
export function delegatingAuthorizer(
  kubeConfig: KubeConfig,
  alwaysAllowPaths: readonly string[],
  clock: Clock = realClock,
): (user: UserInfo, verb: string, path: string) => Promise<void> {
  const client = newRESTClient(kubeConfig);
  const allowedPath = alwaysAllowPathsMatcher(alwaysAllowPaths);
  const cache = ttlCache<{ allowed: boolean; reason: string }>(clock);
  return async (user, verb, path) => {
    if (user.groups.includes("system:masters") || allowedPath(path)) return;
    const spec = { user: user.username, uid: user.uid, groups: user.groups, extra: user.extra, nonResourceAttributes: { path, verb } };
    const key = JSON.stringify(spec);
    let decision = cache.get(key);
    if (decision === undefined) {
      const review = await client.request<SubjectAccessReviewStatus>("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", {
        apiVersion: "authorization.k8s.io/v1",
        kind: "SubjectAccessReview",
        spec,
      });
      decision = { allowed: review.status?.allowed === true && review.status.denied !== true, reason: review.status?.reason ?? "" };
      cache.set(key, decision);
    }
    if (decision.allowed) return;
    // responsewriters.Forbidden: forbiddenMessage, then ": <reason>" when the authorizer gave one.
    const message = `User ${JSON.stringify(user.username)} cannot ${verb} path ${JSON.stringify(path)}`;
    throw StatusError.forbidden({ group: "", resource: "" }, "", decision.reason === "" ? message : `${message}: ${decision.reason}`);
  };
}
