/**
 * The validating webhook dispatcher (admission/plugin/webhook/validating/dispatcher.go Dispatch):
 * every matching webhook is called in parallel; a call failure counts only under failurePolicy
 * Fail (500), a denial always; the first error in webhook order is the request's.
 */
import { ErrCallingWebhook } from "../errors/errors.ts";
import { callFailure, callHook } from "../generic/call-hook.ts";
import { evaluateMatchConditions, namespaceLabels, webhookMatches } from "../generic/should-call-hook.ts";
import type { Dispatcher } from "../generic/plugin.ts";

/** Runs the validating webhooks of `hooks` that match `a`; throws the first refusal. */
export const dispatchValidating: Dispatcher = async (hooks, a, ctx, namespace, post, metrics, authorize) => {
  const nsLabels = namespaceLabels(a, namespace);
  const nsObject = a.namespace !== "" ? namespace(a.namespace) : undefined;
  const relevant = hooks.filter((h) => webhookMatches(h, a, nsLabels));
  if (relevant.length === 0) return;
  const outcomes = await Promise.all(
    relevant.map(async (h): Promise<Error | undefined> => {
      const ignore = h.webhook.failurePolicy === "Ignore";
      try {
        const m = evaluateMatchConditions(h, a, nsObject, authorize);
        if ("error" in m) throw new ErrCallingWebhook(h.webhook.name, m.error);
        if (!m.matches) return undefined;
        await callHook(h, a, ctx, false, post, metrics);
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
