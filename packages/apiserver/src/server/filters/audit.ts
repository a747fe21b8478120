/**
 * WithAudit and WithFailedAuthenticationAudit (staging/src/k8s.io/apiserver/pkg/endpoints/filters/
 * audit.go): once the request is answered its audit Events are written per the policy, with what
 * the chain learned (user, impersonated user, request info, authorization annotations), the
 * request body the handler read and the response it wrote. WithAudit runs after authentication,
 * so the policy sees the authenticated user; requests that fail authentication are audited by
 * the failed handler.
 */
import { auditFinishedRequest, captureResponseBody, statusOfBody, type AuditConfig } from "../../audit/audit-request.ts";
import { nowMicros } from "../../audit/request.ts";
import { requestBodies } from "../http.ts";
import type { Filter, Handler, RequestContext } from "./context.ts";

/** Audits every request that passes authentication; a pass-through without an audit config. */
export function withAudit(config: AuditConfig | undefined): Filter {
  if (config === undefined) return (next) => next;
  return (next) => async (ctx) => {
    const receivedMicros = receivedAt(ctx);
    // A watch's stream is not an object to record.
    const responseBody = ctx.longRunning ? undefined : captureResponseBody(ctx.res);
    try {
      await next(ctx);
    } finally {
      record(config, ctx, receivedMicros, responseBody?.());
    }
  };
}

/** Wraps the failed-authentication handler so that its 401 is audited too. */
export function withFailedAuthenticationAudit(failed: Handler, config: AuditConfig | undefined): Handler {
  if (config === undefined) return failed;
  return async (ctx) => {
    const receivedMicros = receivedAt(ctx);
    const responseBody = captureResponseBody(ctx.res);
    await failed(ctx);
    record(config, ctx, receivedMicros, responseBody());
  };
}

function record(config: AuditConfig, ctx: RequestContext, receivedMicros: number, body: Buffer | undefined): void {
  const code = ctx.code ?? 500;
  auditFinishedRequest(config, {
    auditID: ctx.auditID,
    req: ctx.req,
    info: ctx.audit,
    receivedMicros,
    longRunning: ctx.longRunning,
    code,
    status: statusOfBody(code, body),
    requestBody: requestBodies.get(ctx.req),
    responseBody: body,
  });
}

/** The wall-clock time the request arrived (WithRequestReceivedTimestamp), in microseconds. */
function receivedAt(ctx: RequestContext): number {
  return nowMicros() - Math.round(Number(process.hrtime.bigint() - ctx.started) / 1000);
}
