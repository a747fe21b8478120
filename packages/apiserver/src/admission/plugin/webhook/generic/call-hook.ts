/**
 * One call of one webhook, the part the validating and mutating dispatchers share (their
 * callHook): the dry-run check on sideEffects, the AdmissionReview posted with the webhook's
 * timeout, the answer verified; audit annotations (prefixed with the webhook's name) and warnings
 * go into the request's admission context; a denial becomes ToStatusErr's error.
 */
import { StatusError } from "@servicenet/api";
import type { Attributes } from "../../../attributes.ts";
import type { AdmissionContext } from "../../../interfaces.ts";
import { postWebhook } from "../client.ts";
import { ErrCallingWebhook, newDryRunUnsupportedErr, toStatusErr } from "../errors/errors.ts";
import { createAdmissionReview, verifyAdmissionResponse, type AdmissionResult } from "../request/admissionreview.ts";
import type { WebhookAccessor } from "./source.ts";

/** Posts a review; tests swap it for a recording one. */
export type WebhookPoster = typeof postWebhook;

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
): Promise<AdmissionResult> {
  const w = h.webhook;
  if (a.dryRun) {
    if (w.sideEffects === undefined) throw new ErrCallingWebhook(w.name, "Webhook SideEffects is nil");
    if (w.sideEffects !== "None" && w.sideEffects !== "NoneOnDryRun") throw newDryRunUnsupportedErr(w.name);
  }
  const { uid, review } = createAdmissionReview(a);
  let body: unknown;
  try {
    body = await post(w.clientConfig, review, w.timeoutSeconds ?? 10);
  } catch (e) {
    throw new ErrCallingWebhook(w.name, `failed to call webhook: ${(e as Error).message}`);
  }
  let result: AdmissionResult;
  try {
    result = verifyAdmissionResponse(uid, mutating, body);
  } catch (e) {
    throw new ErrCallingWebhook(w.name, `received invalid webhook response: ${(e as Error).message}`);
  }
  for (const [k, v] of Object.entries(result.auditAnnotations)) ctx.auditAnnotations[`${w.name}/${k}`] = v;
  for (const warning of result.warnings) if (!ctx.warnings.includes(warning)) ctx.warnings.push(warning);
  if (!result.allowed) throw toStatusErr(w.name, result.result);
  return result;
}

/** A failed call under failurePolicy Fail: 500 `Internal error occurred: failed calling webhook ...`. */
export function callFailure(e: ErrCallingWebhook): StatusError {
  return StatusError.internal(e.message, e);
}
