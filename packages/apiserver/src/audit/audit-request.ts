/**
 * One request's audit (staging/src/k8s.io/apiserver/pkg/endpoints/filters/audit.go WithAudit and
 * audit_init.go WithAuditInit): the Audit-Id header, the policy's level and stages, and the
 * events written at RequestReceived, ResponseStarted (long-running requests) and
 * ResponseComplete. The policy sees the authenticated user, not the impersonated one, as
 * WithAudit runs between authentication and impersonation.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Status } from "@servicenet/api";
import { parse as parseYAML } from "yaml";
import type { AuditStage } from "../apis/audit/v1/types.ts";
import type { AuditBackend } from "../plugin/pkg/audit/log/backend.ts";
import type { AuditInfo } from "../server/audit.ts";
import { getAuthorizerAttributes } from "../server/filters/authorization.ts";
import type { PolicyRuleEvaluator } from "./policy/checker.ts";
import { auditEvent, nowMicros, sourceIPs, type AuditRecord } from "./request.ts";
import { parseJSON } from "../util/json/json.ts";
import { annotationsAtLevel } from "../admission/audit-annotations.ts";

/** The policy and the backend of `--audit-policy-file` and `--audit-log-path`. */
export interface AuditConfig {
  evaluator: PolicyRuleEvaluator;
  backend: AuditBackend;
}

/** The response header naming the request's audit ID (auditinternal.HeaderAuditID, canonicalised as Go does). */
export const auditIDHeader = "Audit-Id";

/** WithAuditInit: the client's Audit-ID, or a new UUID, echoed on the response. */
export function initAuditID(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers["audit-id"];
  const id = typeof given === "string" && given !== "" ? given : randomUUID();
  res.setHeader(auditIDHeader, id);
  return id;
}

/** Everything but the bodies, known once the request is answered. */
export interface FinishedRequest {
  auditID: string;
  req: IncomingMessage;
  info: AuditInfo;
  receivedMicros: number;
  longRunning: boolean;
  code: number;
  /** The Status of a failed answer. */
  status?: Status | undefined;
  requestBody?: Buffer | undefined;
  responseBody?: Buffer | undefined;
}

/** The events of one finished request under `config`'s policy (none at level None). */
export function auditFinishedRequest(config: AuditConfig, r: FinishedRequest): void {
  const url = new URL(r.req.url ?? "/", "http://localhost");
  // WithAudit evaluates the policy on the request's authorizer attributes (GetAuthorizerAttributes).
  const attrs = getAuthorizerAttributes(r.info.user, r.req.method ?? "GET", url.pathname, url.searchParams, () => r.info.info);
  const { level, omitStages } = config.evaluator.evaluatePolicyRule(attrs);
  if (level === "None") return;
  const record: AuditRecord = {
    auditID: r.auditID,
    level,
    requestURI: r.req.url ?? "/",
    verb: attrs.verb,
    user: r.info.user,
    impersonatedUser: r.info.impersonatedUser,
    sourceIPs: sourceIPs(r.req),
    userAgent: r.req.headers["user-agent"] ?? "",
    info: r.info.info,
    requestObject: decodeBody(r.requestBody),
    responseObject: decodeBody(r.responseBody),
    requestReceivedMicros: r.receivedMicros,
    annotations: {},
  };
  const stages: AuditStage[] = r.longRunning
    ? ["RequestReceived", "ResponseStarted", "ResponseComplete"]
    : ["RequestReceived", "ResponseComplete"];
  const now = nowMicros();
  const events = stages
    .filter((s) => !omitStages.includes(s))
    .map((stage) => {
      if (stage === "RequestReceived") return auditEvent(record, stage, r.receivedMicros);
      return auditEvent(
        {
          ...record,
          responseStatus: { code: r.code, ...(r.status ? { status: r.status } : {}) },
          annotations: annotationsAtLevel(r.info.annotations ?? {}, r.info.annotationLevels, level),
        },
        stage,
        now,
      );
    });
  config.backend.processEvents(...events);
}

/**
 * Collects what is written to `res` (LogResponseObject's object, and the Status of a failure);
 * the returned function gives it once the response ended.
 */
export function captureResponseBody(res: ServerResponse): () => Buffer {
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown): void => {
    if (typeof chunk === "string") chunks.push(Buffer.from(chunk));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => (keep(chunk), write(chunk, ...rest))) as ServerResponse["write"];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== "function") keep(chunk);
    return end(chunk, ...rest);
  }) as ServerResponse["end"];
  return () => Buffer.concat(chunks);
}

/** The Status a failed answer carried, if its body is one. */
export function statusOfBody(code: number, body: Buffer | undefined): Status | undefined {
  if (code < 300 || body === undefined) return undefined;
  const v = decodeBody(body) as { kind?: unknown } | undefined;
  return v?.kind === "Status" ? (v as Status) : undefined;
}

// The object of a JSON or YAML body; upstream logs the decoded object.
function decodeBody(body: Buffer | undefined): unknown {
  if (body === undefined || body.length === 0) return undefined;
  const text = body.toString("utf8");
  try {
    return parseJSON(text);
  } catch {
    try {
      const v = parseYAML(text) as unknown;
      return typeof v === "object" && v !== null ? v : undefined;
    } catch {
      return undefined;
    }
  }
}
