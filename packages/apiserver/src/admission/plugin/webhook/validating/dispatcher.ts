/**
 * The validating webhook dispatcher (admission/plugin/webhook/validating/dispatcher.go Dispatch):
 * every matching webhook is called in parallel; a call failure counts only under failurePolicy
 * Fail (500), a denial always; the first error in webhook order is the request's. A webhook matched
 * through an equivalent resource is sent the objects converted to its version.
 */
import { ErrCallingWebhook } from "../errors/errors.ts";
import { callFailure, callHook, pastDeadline, requestTimedOut } from "../generic/call-hook.ts";
import { evaluateMatchConditions, invocationAttributes, namespaceLabels, webhookMatches } from "../generic/should-call-hook.ts";
import type { Dispatcher } from "../generic/plugin.ts";

/** Runs the validating webhooks of `hooks` that match `a`; throws the first refusal. */
export const dispatchValidating: Dispatcher = async (hooks, a, ctx, namespace, post, metrics, authorize, mapper) => {
  const nsLabels = namespaceLabels(a, namespace);
  const nsObject = a.namespace !== "" ? namespace(a.namespace) : undefined;
  const relevant = hooks.flatMap((h) => {
    const matched = webhookMatches(h, a, nsLabels, mapper);
    return matched ? [{ h, v: invocationAttributes(a, matched, mapper) }] : [];
  });
  if (relevant.length === 0) return;
  // The request has already timed out: no point in calling anyone.
  if (pastDeadline(ctx)) throw requestTimedOut();
  const outcomes = await Promise.all(
    relevant.map(async ({ h, v }): Promise<Error | undefined> => {
      const ignore = h.webhook.failurePolicy === "Ignore";
      try {
        const m = evaluateMatchConditions(h, v, nsObject, authorize);
        if ("error" in m) throw new ErrCallingWebhook(h.webhook.name, m.error);
        if (!m.matches) return undefined;
        await callHook(h, v, ctx, false, post, metrics);
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
