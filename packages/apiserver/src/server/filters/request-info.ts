/**
 * WithRequestInfo (staging/src/k8s.io/apiserver/pkg/endpoints/filters/requestinfo.go): the path
 * becomes the request info (verb, group, version, resource, namespace, name) for authorization,
 * audit and routing alike. It is parsed once, on first use (a trailing slash changes no segment),
 * and a path with an invalid escape is the same 400 wherever it is first asked for.
 */
import { parseRequestInfo, type RequestInfo } from "../request-info.ts";
import type { Filter } from "./context.ts";

/** Installs the lazy, parse-once `ctx.requestInfo()`. */
export const withRequestInfo: Filter = (next) => (ctx) => {
  let parsed: { info: RequestInfo | undefined } | { error: unknown } | undefined;
  ctx.requestInfo = () => {
    if (parsed === undefined) {
      try {
        parsed = { info: parseRequestInfo(ctx.path, ctx.req.method ?? "GET", ctx.url.searchParams) };
      } catch (error) {
        parsed = { error };
      }
    }
    if ("error" in parsed) throw parsed.error;
    return parsed.info;
  };
  return next(ctx);
};
