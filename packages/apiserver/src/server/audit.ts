/**
 * Who did what, in each request log line: the fields of an audit.k8s.io/v1 Event
 * (staging/src/k8s.io/apiserver/pkg/audit/request.go NewEventFromRequest, LogImpersonatedUser,
 * LogResponseObject): `user`, `impersonatedUser`, `verb`, `objectRef` and `responseStatus.code`.
 */
import type { AuditLevel } from "../apis/audit/v1/types.ts";
import { auditObjectRef, auditUser } from "../audit/request.ts";
import type { UserInfo } from "../authentication/user/user.ts";
import type { RequestInfo } from "./request-info.ts";

/** What the request learned about itself on the way through the handler chain. */
export interface AuditInfo {
  /** The authenticated requester. */
  user?: UserInfo | undefined;
  /** The user it acts as through impersonation headers. */
  impersonatedUser?: UserInfo;
  /** The parsed resource request (absent for non-resource paths). */
  info?: RequestInfo;
  /** Annotations the handler chain added (the authorization decision and its reason). */
  annotations?: Record<string, string>;
  /** The audit level of each annotation kept above Metadata (admission's AddAnnotationWithLevel). */
  annotationLevels?: Record<string, AuditLevel>;
}

/** The audit fields of one request: `auditVerb` is upstream's request verb (list, create, or the lower-case method). */
export function auditFields(a: AuditInfo, method: string, path: string, code: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (a.user) out["user"] = auditUser(a.user);
  if (a.impersonatedUser) out["impersonatedUser"] = auditUser(a.impersonatedUser);
  const i = a.info;
  out["auditVerb"] = i ? i.verb : method.toLowerCase();
  if (i) out["objectRef"] = auditObjectRef(i);
  else out["requestURI"] = path;
  out["responseStatus"] = { code };
  return out;
}
