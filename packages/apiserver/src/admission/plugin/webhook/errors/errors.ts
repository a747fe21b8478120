/**
 * The errors of calling a webhook (k8s.io/apiserver/pkg/util/webhook/error.go ErrCallingWebhook,
 * ErrWebhookRejection; admission/plugin/webhook/errors/statuserror.go ToStatusErr,
 * NewDryRunUnsupportedErr).
 */
import { StatusError, type StatusReason } from "@servicenet/api";

/** A webhook that could not be called, or answered nonsense; its failurePolicy decides. */
export class ErrCallingWebhook extends Error {
  readonly webhookName: string;
  readonly reason: string;
  /** The code of upstream's Status for the failure (503 unreachable or a bad answer, the webhook's own non-2xx code). */
  readonly code: number;

  constructor(webhookName: string, reason: string, code = 500) {
    super(`failed calling webhook "${webhookName}": ${reason}`);
    this.name = "ErrCallingWebhook";
    this.webhookName = webhookName;
    this.reason = reason;
    this.code = code;
  }
}

/** The `result` Status of an AdmissionResponse, as a webhook may send it. */
export interface WebhookResultStatus {
  code?: number;
  status?: string;
  message?: string;
  reason?: string;
  details?: Record<string, unknown>;
}

/**
 * ToStatusErr: a denial keeps the webhook's code (at least 400) and reason, its message prefixed
 * with `admission webhook "<name>" denied the request`.
 */
export function toStatusErr(webhookName: string, result: WebhookResultStatus | undefined): StatusError {
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const r = result ?? {};
  const code = typeof r.code === "number" && r.code >= 400 ? r.code : 400;
  const reason = typeof r.reason === "string" ? r.reason : "";
  let message: string;
  if (typeof r.message === "string" && r.message !== "") message = `${deniedBy}: ${r.message}`;
  else if (reason !== "") message = `${deniedBy}: ${reason}`;
  else message = `${deniedBy} without explanation`;
  const e = new StatusError("BadRequest", message, r.details);
  // The webhook's own code and reason, whatever they are (upstream returns its Status as is).
  e.status.code = code;
  e.status.reason = reason as StatusReason | "";
  return e;
}

/** NewDryRunUnsupportedErr: a dry run reaching a webhook that may have side effects. */
export function newDryRunUnsupportedErr(webhookName: string): StatusError {
  return StatusError.badRequest(`admission webhook "${webhookName}" does not support dry run`);
}
