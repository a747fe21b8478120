/**
 * WithAuditInit (staging/src/k8s.io/apiserver/pkg/endpoints/filters/audit_init.go): the first
 * filter of the chain gives the request its audit ID (the client's `Audit-ID`, or a new UUID) and
 * echoes it on the response, so every later filter, log line and audit Event names it.
 */
import { initAuditID } from "../../audit/audit-request.ts";
import type { Filter } from "./context.ts";

/** Sets `ctx.auditID` and the `Audit-Id` response header. */
export const withAuditInit: Filter = (next) => (ctx) => {
  ctx.auditID = initAuditID(ctx.req, ctx.res);
  return next(ctx);
};
