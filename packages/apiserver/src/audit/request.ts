/**
 * Building audit.k8s.io/v1 Events (staging/src/k8s.io/apiserver/pkg/audit/request.go
 * NewEventFromRequest, LogImpersonatedUser, LogRequestObject, LogResponseObject), in the Go
 * struct's field order, with MicroTime timestamps.
 */
import { isIP } from "node:net";
import type { IncomingMessage } from "node:http";
import type { Status } from "@servicenet/api";
import type { AuditLevel, AuditStage } from "../apis/audit/v1/types.ts";
import { levelLess } from "../apis/audit/v1/types.ts";
import type { UserInfo } from "../authentication/user/user.ts";
import type { RequestInfo } from "../server/request-info.ts";

/** authnv1.UserInfo as an audit Event carries it. */
export function auditUser(u: UserInfo): Record<string, unknown> {
  return {
    username: u.name,
    ...(u.uid !== "" ? { uid: u.uid } : {}),
    groups: u.groups,
    ...(u.extra && Object.keys(u.extra).length > 0 ? { extra: u.extra } : {}),
  };
}

/** audit.ObjectReference of a resource request. */
export function auditObjectRef(i: RequestInfo): Record<string, unknown> {
  return {
    resource: i.resource,
    ...(i.namespace !== undefined && i.namespace !== "" ? { namespace: i.namespace } : {}),
    ...(i.name !== "" ? { name: i.name } : {}),
    ...(i.group !== "" ? { apiGroup: i.group } : {}),
    apiVersion: i.version,
    ...(i.subresource !== "" ? { subresource: i.subresource } : {}),
  };
}

/** metav1.MicroTime's RFC 3339 text with six fractional digits, from microseconds since the epoch. */
export function formatMicroTime(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const frac = String(Math.floor(micros % 1_000_000)).padStart(6, "0");
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, `.${frac}Z`);
}

/** Microseconds since the epoch, as precisely as the process clock gives them. */
export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/**
 * utilnet.SourceIPs: the addresses of X-Forwarded-For, then X-Real-Ip, then the connection's
 * peer, each once.
 */
export function sourceIPs(req: IncomingMessage): string[] {
  const out: string[] = [];
  const add = (ip: string): void => {
    const t = ip.trim();
    if (isIP(t) !== 0 && !out.includes(t)) out.push(t);
  };
  const forwarded = req.headers["x-forwarded-for"];
  for (const part of (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",")) add(part);
  const real = req.headers["x-real-ip"];
  if (typeof real === "string") add(real);
  add((req.socket.remoteAddress ?? "").replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1"));
  return out;
}

/** What one request's audit events are made of. */
export interface AuditRecord {
  auditID: string;
  level: AuditLevel;
  requestURI: string;
  verb: string;
  user?: UserInfo | undefined;
  impersonatedUser?: UserInfo | undefined;
  sourceIPs: string[];
  userAgent: string;
  info?: RequestInfo | undefined;
  /** The answer: its code, and its Status when it was one. */
  responseStatus?: { code: number; status?: Status } | undefined;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedMicros: number;
  annotations: Record<string, string>;
}

/** The audit Event of `r` at `stage`; bodies only at the levels that record them. */
export function auditEvent(r: AuditRecord, stage: AuditStage, stageMicros: number): Record<string, unknown> {
  const ev: Record<string, unknown> = {
    kind: "Event",
    apiVersion: "audit.k8s.io/v1",
    level: r.level,
    auditID: r.auditID,
    stage,
    requestURI: r.requestURI,
    verb: r.verb,
    user: r.user ? auditUser(r.user) : {},
  };
  if (r.impersonatedUser) ev["impersonatedUser"] = auditUser(r.impersonatedUser);
  ev["sourceIPs"] = r.sourceIPs;
  if (r.userAgent !== "") ev["userAgent"] = r.userAgent;
  if (r.info !== undefined && r.info.resource !== "") ev["objectRef"] = auditObjectRef(r.info);
  if (r.responseStatus && stage !== "RequestReceived") ev["responseStatus"] = responseStatus(r.responseStatus);
  if (!levelLess(r.level, "Request") && r.requestObject !== undefined) ev["requestObject"] = r.requestObject;
  if (!levelLess(r.level, "RequestResponse") && r.responseObject !== undefined && stage === "ResponseComplete")
    ev["responseObject"] = r.responseObject;
  ev["requestReceivedTimestamp"] = formatMicroTime(r.requestReceivedMicros);
  ev["stageTimestamp"] = formatMicroTime(stageMicros);
  if (Object.keys(r.annotations).length > 0) ev["annotations"] = r.annotations;
  return ev;
}

// LogResponseObject copies only the bounded fields of a Status answer.
function responseStatus(s: { code: number; status?: Status }): Record<string, unknown> {
  const st = s.status;
  if (st === undefined) return { metadata: {}, code: s.code };
  return {
    metadata: {},
    ...(st.status ? { status: st.status } : {}),
    ...(st.message ? { message: st.message } : {}),
    ...(st.reason ? { reason: st.reason } : {}),
    ...(st.details ? { details: st.details } : {}),
    code: s.code,
  };
}
