/**
 * The one request context every filter and handler of the chain sees (upstream keeps the same
 * facts in the request's context.Context: the request info, the user, the audit event, the
 * received timestamp), and the Handler and Filter shapes the chain is built from
 * (staging/src/k8s.io/apiserver/pkg/server/config.go DefaultBuildHandlerChain).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { StatusError } from "@servicenet/api";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { UserInfo } from "../../authentication/user/user.ts";
import type { AuditInfo } from "../audit.ts";
import { sendError } from "../http.ts";
import type { RequestLabels } from "../metrics.ts";
import { queryBool } from "../query-conversion.ts";
import type { RequestInfo } from "../request-info.ts";

/** What one request carries through the chain. */
export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The request URL (a malformed one reads as `/`). */
  readonly url: URL;
  /** The path without its trailing slashes (`/` for the root). */
  readonly path: string;
  /** process.hrtime of arrival (WithRequestReceivedTimestamp). */
  readonly started: bigint;
  /** Watches: exempt from the timeout, their stream not recorded (upstream's LongRunningFunc). */
  readonly longRunning: boolean;
  /** When a request that is not long-running must be answered, in Date.now() milliseconds (WithRequestDeadline). */
  deadline?: number;
  /** The parsed request info, resolved once on first call (WithRequestInfo); throws a bad path's 400. */
  requestInfo: () => RequestInfo | undefined;
  /** The authenticated (then impersonated) user; undefined without authentication. */
  user?: UserInfo | undefined;
  /** The request's audit ID (WithAuditInit). */
  auditID: string;
  /** What the audit record and the request log learn on the way. */
  audit: AuditInfo;
  /** The metric labels; the resource handler fills in the resource's. */
  labels: RequestLabels;
  /** The status code of the answer, once one is written. */
  code?: number;
  readonly logger: Logger;
}

/** A request handler: resolves when the request is answered (or, for a watch, ends). */
export type Handler = (ctx: RequestContext) => Promise<void>;

/** One filter of the chain: wraps the rest of it. */
export type Filter = (next: Handler) => Handler;

/** The labels of a request nothing has routed yet: its method, nothing else. */
export function unroutedLabels(method: string): RequestLabels {
  return { verb: method, group: "", version: "", resource: "", subresource: "", scope: "" };
}

/**
 * The request target's path as sent. WHATWG URL parsing drops "." and ".." segments; Go's server
 * does not, so `…/roles/.` names an object "." (a bad name) rather than the collection.
 */
function rawPath(target: string, parsed: URL): string {
  const end = target.search(/[?#]/);
  const p = end < 0 ? target : target.slice(0, end);
  return p.startsWith("/") ? p : parsed.pathname;
}

/** A fresh context; the request info is filled in by {@link withRequestInfo}. */
export function newRequestContext(req: IncomingMessage, res: ServerResponse, logger: Logger = noopLogger): RequestContext {
  let url: URL;
  try {
    url = new URL(req.url ?? "/", "http://localhost");
  } catch {
    url = new URL("http://localhost/");
  }
  return {
    req,
    res,
    url,
    path: rawPath(req.url ?? "/", url).replace(/\/+$/, "") || "/",
    started: process.hrtime.bigint(),
    longRunning: (queryBool(url.searchParams, "watch") ?? false) || url.pathname.includes("/watch/"),
    requestInfo: () => undefined,
    auditID: "",
    audit: {},
    labels: unroutedLabels(req.method ?? ""),
    logger,
  };
}

/**
 * responsewriters.ErrorNegotiated: the error as a Status (YAML when asked for), its code kept on
 * the context. An error that is not a Status is an internal error, logged with its stack.
 */
export function writeError(ctx: RequestContext, e: unknown): void {
  const wantsYAML = (ctx.req.headers.accept ?? "").startsWith("application/yaml");
  ctx.code = sendError(ctx.res, e, wantsYAML ? "yaml" : "json");
  if (!(e instanceof StatusError))
    ctx.logger.error("Internal error", { uri: ctx.req.url, error: e instanceof Error ? e.stack : String(e) });
}

/** Composes filters: the first listed runs first (the reverse of DefaultBuildHandlerChain's wrapping order). */
export function chain(filters: readonly Filter[], handler: Handler): Handler {
  return filters.reduceRight<Handler>((next, f) => f(next), handler);
}
