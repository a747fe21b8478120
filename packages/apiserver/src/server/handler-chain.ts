/**
 * The request path, composed as upstream's DefaultBuildHandlerChain
 * (staging/src/k8s.io/apiserver/pkg/server/config.go) orders it, outermost first:
 *
 *   audit ID → panic recovery → request info → request log + metrics → timeout →
 *   authentication → audit → impersonation → priority and fairness → authorization → director
 *
 * and the director (server/handler.go) sends a path the non-resource mux claims to its entry and
 * every other path to the resource handler (upstream's go-restful container).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "@servicenet/component-base/logs";
import type { Authenticator } from "../authentication/authenticator/interfaces.ts";
import type { AuditConfig } from "../audit/audit-request.ts";
import type { Authorizer } from "../authorization/authorizer/interfaces.ts";
import { withAudit, withFailedAuthenticationAudit } from "./filters/audit.ts";
import { withAuditInit } from "./filters/audit-init.ts";
import { unauthorized, withAuthentication } from "./filters/authentication.ts";
import { withAuthorization } from "./filters/authorization.ts";
import { chain, newRequestContext, writeError, type Filter, type Handler } from "./filters/context.ts";
import { withFlowControl, type FlowControlConfig } from "./filters/flow-control.ts";
import { withImpersonation } from "./filters/impersonation.ts";
import { withPanicRecovery } from "./filters/panic-recovery.ts";
import { withRequestInfo } from "./filters/request-info.ts";
import { withRequestLog } from "./filters/request-log.ts";
import { withTimeout } from "./filters/timeout.ts";
import type { RequestMetrics } from "./metrics.ts";
import type { MuxEntry } from "./mux.ts";
import { methodNotAllowed } from "./routes.ts";

/** What the filters need. */
export interface HandlerChainConfig {
  authenticator?: Authenticator | undefined;
  authorizer?: Authorizer | undefined;
  /** The AuthorizeWithSelectors feature gate (default on). */
  authorizeWithSelectors?: boolean | undefined;
  audit?: AuditConfig | undefined;
  /** API Priority and Fairness or the max-in-flight limit; every request passes straight through without either. */
  flowControl?: FlowControlConfig | undefined;
  metrics: RequestMetrics;
  requestTimeoutMs?: number | undefined;
  logger: Logger;
}

/** The filters in the order a request meets them. */
export function defaultFilters(c: HandlerChainConfig): readonly Filter[] {
  return [
    withAuditInit,
    withPanicRecovery,
    withRequestInfo,
    withRequestLog(c.metrics),
    withTimeout(c.requestTimeoutMs),
    withAuthentication(c.authenticator, withFailedAuthenticationAudit(unauthorized, c.audit)),
    withAudit(c.audit),
    withImpersonation(c.authorizer),
    withFlowControl(c.flowControl),
    withAuthorization(c.authorizer, c.authorizeWithSelectors ?? true),
  ];
}

/**
 * The director: the first mux entry claiming the path, else the resource handler. A handler's
 * error is answered as a Status (responsewriters.ErrorNegotiated) under the labels the request has:
 * its resource's once a route served it (a 404 of an object, a 409 of a PUT, as upstream's
 * InstrumentRouteFunc records them), the unrouted ones before (go-restful's own 404 and 405).
 */
export function director(mux: readonly MuxEntry[], resources: Handler): Handler {
  return async (ctx) => {
    const entry = mux.find((e) => e.matches(ctx.path));
    try {
      // go-restful's 405 for a method its route does not take (HEAD is served as GET, as for resources).
      const method = ctx.req.method === "HEAD" ? "GET" : (ctx.req.method ?? "");
      if (entry?.methods !== undefined && !entry.methods.includes(method)) throw methodNotAllowed();
      await (entry ? entry.handle(ctx) : resources(ctx));
    } catch (e) {
      writeError(ctx, e);
    }
  };
}

/** The node:http request listener of the whole chain. */
export function buildHandlerChain(
  c: HandlerChainConfig,
  handler: Handler,
  filters: readonly Filter[] = defaultFilters(c),
): (req: IncomingMessage, res: ServerResponse) => void {
  const h = chain(filters, handler);
  return (req, res) => {
    const ctx = newRequestContext(req, res, c.logger);
    // withPanicRecovery answers what the chain throws; nothing reaches node's unhandled rejection.
    h(ctx).catch(() => res.destroy());
  };
}
