/**
 * The routes kube-apiserver registers for a resource (`apiserver/pkg/endpoints/installer.go`,
 * `registerResourceHandlers`) and go-restful's answer for a request no route takes: a path with
 * routes for other methods only is 405, a path without routes 404, both as the generic server
 * response `serviceErrorHandler` (`apiserver/pkg/server/handler.go`) writes.
 */
import { StatusError } from "@servicenet/api";
import type { RequestInfo } from "./request-info.ts";
import { verbsOfSubresource, type ResourceDef } from "./resources.ts";

/** HTTP method -> the verb its route serves. */
export type Routes = ReadonlyMap<string, string>;

/**
 * The routes on the path `info` addresses: a collection serves GET (list), POST (create) and
 * DELETE (deletecollection); the all-namespaces list of a namespaced resource GET only; an object
 * or its subresource GET, PUT, PATCH and DELETE by the verbs it serves, a subresource POST too
 * (pods/binding); a `/watch/` path GET only.
 * Empty when nothing is registered there.
 */
export function routesFor(def: ResourceDef, info: RequestInfo): Routes {
  const routes = new Map<string, string>();
  if (info.extra.length > 0 || (info.subresource !== "" && !def.subresources.includes(info.subresource))) return routes;
  const verbs = info.subresource !== "" ? verbsOfSubresource(def, info.subresource) : def.verbs;
  const add = (method: string, verb: string): void => {
    if (verbs.includes(verb)) routes.set(method, verb);
  };
  const allNamespaces = def.namespaced && info.namespace === undefined;
  if (info.watchPath) {
    // upstream registers no watch on subresources nor on a named object across namespaces.
    if (info.subresource === "" && !(allNamespaces && info.name !== "")) add("GET", "watch");
  } else if (info.name === "") {
    add("GET", "list");
    if (!allNamespaces) {
      add("POST", "create");
      add("DELETE", "deletecollection");
    }
  } else if (!allNamespaces) {
    // A subresource with a creater (pods/binding) takes POST on its own path (installer.go's
    // isCreater on a subresource path); an object path never does.
    if (info.subresource !== "") add("POST", "create");
    add("GET", "get");
    add("PUT", "update");
    add("PATCH", "patch");
    add("DELETE", "delete");
  }
  return routes;
}

/** go-restful's 405: `NewGenericServerResponse(405, ...)`, with its empty details. */
export function methodNotAllowed(): StatusError {
  return new StatusError("MethodNotAllowed", "the server does not allow this method on the requested resource", {});
}

/** go-restful's 404 for a path inside a served group version that no route takes. */
export function routeNotFound(): StatusError {
  return new StatusError("NotFound", "the server could not find the requested resource", {});
}

/**
 * Throws go-restful's 404 or 405 unless a route of `def` takes `method` on this path. HEAD is
 * served as GET (node answers it without a body).
 */
export function checkRoute(def: ResourceDef, info: RequestInfo, method: string): void {
  const routes = routesFor(def, info);
  if (routes.size === 0) throw routeNotFound();
  if (!routes.has(method === "HEAD" ? "GET" : method)) throw methodNotAllowed();
}
