/**
 * Resolves a request path and method into what it addresses (k8s.io/apiserver
 * endpoints/request RequestInfoFactory): group, version, namespace, resource, name,
 * subresource and verb.
 */
import { StatusError } from "@servicenet/api";
import { queryBool } from "./query-conversion.ts";

export interface RequestInfo {
  group: string;
  version: string;
  namespace: string | undefined;
  resource: string;
  name: string;
  subresource: string;
  verb: "get" | "list" | "watch" | "create" | "update" | "patch" | "delete" | "deletecollection" | "";
  /** Path segments past name/subresource: never served (404). */
  extra: string[];
  /** Addressed through the deprecated `/watch/` prefix (GET only). */
  watchPath: boolean;
}

const namespaceSubresources = new Set(["status", "finalize"]);

function verbFor(method: string, hasName: boolean, watchPath: boolean, watchParam: boolean): RequestInfo["verb"] {
  switch (method) {
    case "GET":
    case "HEAD":
      // `?watch=` makes only a collection GET a watch (upstream's item GET ignores it); the
      // `/watch/` prefix makes any GET one.
      if (watchPath) return "watch";
      if (hasName) return "get";
      return watchParam ? "watch" : "list";
    case "POST":
      return "create";
    case "PUT":
      return "update";
    case "PATCH":
      return "patch";
    case "DELETE":
      return hasName ? "delete" : "deletecollection";
    default:
      return "";
  }
}

/**
 * Parses `/api/v1/...` and `/apis/<g>/<v>/...` resource paths. Returns undefined for paths that
 * stop at the group version (discovery) or are not API paths at all.
 */
export function parseRequestInfo(pathname: string, method: string, query: URLSearchParams): RequestInfo | undefined {
  let parts: string[];
  try {
    parts = pathname
      .split("/")
      .filter((p) => p !== "")
      .map((p) => decodeURIComponent(p));
  } catch {
    throw StatusError.badRequest(`invalid escape in request path ${JSON.stringify(pathname)}`);
  }
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === "api" && parts.length >= 3) {
    group = "";
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === "apis" && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else return undefined;
  // Deprecated `/watch/` path prefix, still honoured upstream; it only serves GET (upstream
  // registers no other verb there), so a PUT to /watch/... must never become an update.
  let watchPath = false;
  if (rest[0] === "watch") {
    watchPath = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  if (rest[0] === "namespaces" && rest.length > 1) {
    namespace = rest[1]!;
    if (rest.length > 2 && !namespaceSubresources.has(rest[2]!)) rest = rest.slice(2);
    else namespace = undefined;
  }
  const [resource = "", name = "", subresource = "", ...extra] = rest;
  // A namespace object addressed as /namespaces/<name>: that name is not a namespace scope.
  if (resource === "namespaces") namespace = undefined;
  const verb =
    watchPath && method !== "GET" && method !== "HEAD" ? "" : verbFor(method, name !== "", watchPath, queryBool(query, "watch") ?? false);
  return { group, version, namespace, resource, name, subresource, verb, extra, watchPath };
}
