/**
 * One call of one webhook, the part the validating and mutating dispatchers share (their
 * callHook): the dry-run check on sideEffects, the AdmissionReview posted with the webhook's
 * timeout, the answer verified; audit annotations (prefixed with the webhook's name) and warnings
 * go into the request's admission context; a denial becomes ToStatusErr's error. Each call is
 * counted as the dispatchers count it (ObserveWebhook, ObserveWebhookRejection,
 * ObserveWebhookFailOpen).
 */
import { StatusError } from "@servicenet/api";
import type { AdmissionWebhookMetrics } from "../../../metrics/metrics.ts";
import type { Attributes } from "../../../attributes.ts";
import type { AdmissionContext } from "../../../interfaces.ts";
import { postWebhook, RestClientError } from "../client.ts";
import { ErrCallingWebhook, newDryRunUnsupportedErr, toStatusErr } from "../errors/errors.ts";
import {
  admissionReviewVersionFor,
  createAdmissionReview,
  verifyAdmissionResponse,
  type AdmissionResult,
  type AdmissionReviewVersion,
} from "../request/admissionreview.ts";
import type { WebhookAccessor } from "./source.ts";

/** Posts a review; tests swap it for a recording one. */
export type WebhookPoster = typeof postWebhook;

/** webhookutil.ErrWebhookRejection: the webhook answered allowed: false. */
class WebhookRejection extends Error {
  readonly status: StatusError;
  constructor(status: StatusError) {
    super(status.message);
    this.status = status;
  }
}

/**
 * How long a call may take: the webhook's timeout, cut to what is left until the request's
 * deadline (callHook's context.WithTimeout on the request's context).
 */
export function callTimeoutMs(timeoutSeconds: number, deadline: number | undefined, now = Date.now()): number {
  const own = timeoutSeconds * 1000;
  return deadline === undefined ? own : Math.min(own, deadline - now);
}

/** Whether the request's deadline has passed (its context is done). */
export function pastDeadline(ctx: AdmissionContext, now = Date.now()): boolean {
  return ctx.deadline !== undefined && now >= ctx.deadline;
}

/** What a dispatcher answers once the request's deadline has passed. */
export function requestTimedOut(): StatusError {
  return StatusError.timeout("Timeout: request did not complete within requested timeout");
}

/** The call itself; a denial is a WebhookRejection. */
async function invoke(
  h: WebhookAccessor,
  a: Attributes,
  ctx: AdmissionContext,
  mutating: boolean,
  post: WebhookPoster,
): Promise<AdmissionResult> {
  const w = h.webhook;
  if (a.dryRun) {
    if (w.sideEffects === undefined) throw new ErrCallingWebhook(w.name, "Webhook SideEffects is nil", 400);
    if (w.sideEffects !== "None" && w.sideEffects !== "NoneOnDryRun") throw newDryRunUnsupportedErr(w.name);
  }
  let version: AdmissionReviewVersion;
  try {
    version = admissionReviewVersionFor(w.admissionReviewVersions);
  } catch (e) {
    throw new ErrCallingWebhook(w.name, `could not create admission objects: ${(e as Error).message}`, 400);
  }
  const { uid, review } = createAdmissionReview(a, undefined, version);
  let body: unknown;
  try {
    body = await post(w.clientConfig, review, callTimeoutMs(w.timeoutSeconds ?? 10, ctx.deadline));
  } catch (e) {
    // The dispatchers' GetRESTClient failure: an internal error.
    if (e instanceof RestClientError) throw new ErrCallingWebhook(w.name, `could not get REST client: ${e.message}`, 500);
    // A transport failure is a 503 ("error calling webhook"); a non-2xx answer keeps its code.
    const code = (e as { statusCode?: number }).statusCode ?? 503;
    throw new ErrCallingWebhook(w.name, `failed to call webhook: ${(e as Error).message}`, code);
  }
  let result: AdmissionResult;
  try {
    result = verifyAdmissionResponse(uid, mutating, body, version);
  } catch (e) {
    throw new ErrCallingWebhook(w.name, `received invalid webhook response: ${(e as Error).message}`, 503);
  }
  for (const [k, v] of Object.entries(result.auditAnnotations)) ctx.auditAnnotations[`${w.name}/${k}`] = v;
  for (const warning of result.warnings) if (!ctx.warnings.includes(warning)) ctx.warnings.push(warning);
  if (!result.allowed) throw new WebhookRejection(toStatusErr(w.name, result.result));
  return result;
}

/** The dispatchers' accounting of one call's outcome (validating/dispatcher.go, mutating/dispatcher.go). */
function observe(m: AdmissionWebhookMetrics, h: WebhookAccessor, a: Attributes, mutating: boolean, seconds: number, err: unknown): void {
  const name = h.webhook.name;
  const type = mutating ? "admit" : "validating";
  const ignore = h.webhook.failurePolicy === "Ignore";
  if (err === undefined) return m.observeWebhook(name, seconds, false, a.operation, type, 200);
  if (err instanceof ErrCallingWebhook) {
    if (!ignore) m.observeWebhookRejection(name, type, a.operation, "calling_webhook_error", err.code);
    m.observeWebhook(name, seconds, !ignore, a.operation, type, err.code);
    if (ignore) m.observeWebhookFailOpen(name, type);
    return;
  }
  if (err instanceof WebhookRejection) {
    const code = err.status.status.code ?? 0;
    m.observeWebhookRejection(name, type, a.operation, "no_error", code);
    return m.observeWebhook(name, seconds, true, a.operation, type, code);
  }
  m.observeWebhookRejection(name, type, a.operation, "apiserver_internal_error", 0);
  m.observeWebhook(name, seconds, true, a.operation, type, 0);
}

/**
 * Calls `h` about `a`; resolves with the allowed answer, throws ErrCallingWebhook for a call that
 * failed (the failurePolicy decides) and a StatusError for a denial or a dry run it may not see.
 */
export async function callHook(
  h: WebhookAccessor,
  a: Attributes,
  ctx: AdmissionContext,
  mutating: boolean,
  post: WebhookPoster = postWebhook,
  metrics?: AdmissionWebhookMetrics,
): Promise<AdmissionResult> {
  const started = performance.now();
  let err: unknown;
  try {
    return await invoke(h, a, ctx, mutating, post);
  } catch (e) {
    err = e;
    throw e instanceof WebhookRejection ? e.status : e;
  } finally {
    if (metrics) observe(metrics, h, a, mutating, (performance.now() - started) / 1000, err);
  }
}

/** A failed call under failurePolicy Fail: 500 `Internal error occurred: failed calling webhook ...`. */
export function callFailure(e: ErrCallingWebhook): StatusError {
  return StatusError.internal(e.message, e);
}
