/**
 * WithHTTPLogging (staging/src/k8s.io/apiserver/pkg/server/httplog/httplog.go) and the request
 * metrics (endpoints/metrics/metrics.go MonitorRequest): when the request is answered, its
 * `apiserver_request_total` and duration are recorded, and at V(3) one line names its verb, URI,
 * latency, user agent, audit ID, source address and response code, with who did what (the audit
 * fields). Below V(3) the line is not even built, as upstream installs no logging filter then.
 */
import { V } from "@servicenet/component-base/logs";
import { auditFields } from "../audit.ts";
import type { RequestMetrics } from "../metrics.ts";
import type { Filter, RequestContext } from "./context.ts";

/** The verbosity of upstream's request lines (httplog's klog.V(3)). */
export const requestLogVerbosity = 3;

/** Records metrics and the request line once `next` answered (or threw: a 500 then). */
export function withRequestLog(metrics: RequestMetrics): Filter {
  return (next) => async (ctx) => {
    try {
      await next(ctx);
    } finally {
      finish(ctx, metrics);
    }
  };
}

function finish(ctx: RequestContext, metrics: RequestMetrics): void {
  const seconds = Number(process.hrtime.bigint() - ctx.started) / 1e9;
  const code = ctx.code ?? 500;
  metrics.observe(ctx.labels, code, seconds);
  if ((ctx.logger.verbosity ?? 0) < requestLogVerbosity) return;
  const { req } = ctx;
  V(ctx.logger, requestLogVerbosity).info("HTTP", {
    verb: ctx.labels.verb,
    URI: req.url,
    latency: goDuration(seconds),
    userAgent: req.headers["user-agent"] ?? "",
    "audit-ID": ctx.auditID,
    srcIP: `${req.socket.remoteAddress ?? ""}:${req.socket.remotePort ?? ""}`,
    resp: code,
    ...auditFields(ctx.audit, req.method ?? "", ctx.url.pathname, code),
  });
}

/** Go's time.Duration String for a latency: µs below a millisecond, ms below a second. */
export function goDuration(seconds: number): string {
  if (seconds < 1e-3) return `${trim(seconds * 1e6)}µs`;
  if (seconds < 1) return `${trim(seconds * 1e3)}ms`;
  return `${trim(seconds)}s`;
}

const trim = (n: number): string => String(Number(n.toFixed(6)));
