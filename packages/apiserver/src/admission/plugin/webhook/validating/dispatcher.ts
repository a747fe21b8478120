/**
 * The validating webhook dispatcher (admission/plugin/webhook/validating/dispatcher.go Dispatch):
 * every matching webhook is called in parallel; a call failure counts only under failurePolicy
 * Fail (500), a denial always; the first error in webhook order is the request's. A webhook matched
 * through an equivalent resource is sent the objects converted to its version. A failed call that
 * fails open leaves `failed-open.validating.webhook.admission.k8s.io/round_0_index_<i>` = the
 * webhook's name, `i` its place among all the validating webhooks.
 */
import { ErrCallingWebhook } from "../errors/errors.ts";
import { callFailure, callHook, pastDeadline, requestTimedOut } from "../generic/call-hook.ts";
import { invocationAttributes, matchConditionsWithAuthorizer, namespaceLabels, webhookMatches } from "../generic/should-call-hook.ts";
import type { Dispatcher } from "../generic/plugin.ts";
import { addAnnotationWithLevel } from "../../../audit-annotations.ts";
import type { AdmissionContext } from "../../../interfaces.ts";

/** ValidatingAuditAnnotationFailedOpenKeyPrefix. */
export const validatingAuditAnnotationFailedOpenKeyPrefix = "failed-open.validating.webhook.admission.k8s.io/";

/** dispatcher.go's failed-open annotation of the validating webhook at `index` (always round 0). */
function addFailedOpenAnnotation(ctx: AdmissionContext, index: number, webhook: string): void {
  addAnnotationWithLevel(ctx, `${validatingAuditAnnotationFailedOpenKeyPrefix}round_0_index_${index}`, webhook, "Metadata");
}

/** Runs the validating webhooks of `hooks` that match `a`; throws the first refusal. */
export const dispatchValidating: Dispatcher = async (hooks, a, ctx, namespace, post, metrics, authorizer, mapper) => {
  const nsLabels = namespaceLabels(a, namespace);
  const nsObject = a.namespace !== "" ? namespace(a.namespace) : undefined;
  const relevant = hooks.flatMap((h, i) => {
    const matched = webhookMatches(h, a, nsLabels, mapper);
    return matched ? [{ h, i, v: invocationAttributes(a, matched, mapper) }] : [];
  });
  if (relevant.length === 0) return;
  // The request has already timed out: no point in calling anyone.
  if (pastDeadline(ctx)) throw requestTimedOut();
  const outcomes = await Promise.all(
    relevant.map(async ({ h, i, v }): Promise<Error | undefined> => {
      const ignore = h.webhook.failurePolicy === "Ignore";
      try {
        const m = await matchConditionsWithAuthorizer(h, v, nsObject, authorizer);
        if ("error" in m) throw new ErrCallingWebhook(h.webhook.name, m.error);
        if (!m.matches) return undefined;
        try {
          await callHook(h, v, ctx, false, post, metrics);
        } catch (e) {
          if (e instanceof ErrCallingWebhook && ignore) addFailedOpenAnnotation(ctx, i, h.webhook.name);
          throw e;
        }
        return undefined;
      } catch (e) {
        if (e instanceof ErrCallingWebhook) return ignore ? undefined : callFailure(e);
        return e instanceof Error ? e : new Error(String(e));
      }
    }),
  );
  const first = outcomes.find((e) => e !== undefined);
  if (first !== undefined) throw first;
};
