/**
 * The mutating webhook dispatcher (admission/plugin/webhook/mutating/dispatcher.go Dispatch,
 * callAttrMutatingHook, and reinvocationcontext.go): matching webhooks are called one after
 * another, each seeing the object as the ones before it left it; a JSONPatch answer is applied to
 * the object in place. When a webhook changed the object, the webhooks with reinvocationPolicy
 * IfNeeded called before it are called once more in a second round (admission/reinvocation.go;
 * the webhooks are this chain's only mutating plugin, so no other plugin's change needs watching).
 */
import { StatusError } from "@servicenet/api";
import type { KubeObject } from "../../../../storage/index.ts";
import { applyJSONPatch } from "../../../../server/patch/json-patch.ts";
import type { JSONValue } from "../../../../server/patch/json-value.ts";
import type { SynchronousAuthorize } from "../../../../authorization/authorizer/interfaces.ts";
import type { Attributes } from "../../../attributes.ts";
import type { AdmissionContext } from "../../../interfaces.ts";
import { ErrCallingWebhook } from "../errors/errors.ts";
import type { AdmissionWebhookMetrics } from "../../../metrics/metrics.ts";
import { callFailure, callHook, type WebhookPoster } from "../generic/call-hook.ts";
import { evaluateMatchConditions, namespaceLabels, webhookMatches } from "../generic/should-call-hook.ts";
import type { Dispatcher } from "../generic/plugin.ts";
import type { WebhookAccessor } from "../generic/source.ts";

/** reinvocationcontext.go webhookReinvokeContext. */
interface ReinvokeContext {
  previouslyInvokedReinvocable: Set<string>;
  reinvoke: Set<string>;
  shouldReinvoke: boolean;
}

/** Replaces the contents of `target` with `next` (the handlers hold the object by reference). */
function replaceObject(target: KubeObject, next: KubeObject): void {
  for (const k of Object.keys(target)) if (!(k in next)) delete (target as Record<string, unknown>)[k];
  Object.assign(target, next);
}

/** Applies a webhook's patch to `a.object`; true when the object changed. */
function applyPatch(a: Attributes, patchText: string): boolean {
  if (a.object === undefined) return false;
  let ops: unknown;
  try {
    ops = JSON.parse(patchText) as unknown;
  } catch (e) {
    throw StatusError.internal((e as Error).message, e);
  }
  let patched: JSONValue;
  try {
    patched = applyJSONPatch(a.object as unknown as JSONValue, ops);
  } catch (e) {
    throw StatusError.internal((e as Error).message, e);
  }
  const before = JSON.stringify(a.object);
  replaceObject(a.object, patched as unknown as KubeObject);
  return JSON.stringify(a.object) !== before;
}

async function callMutatingHook(
  h: WebhookAccessor,
  a: Attributes,
  ctx: AdmissionContext,
  nsObject: unknown,
  post: WebhookPoster | undefined,
  metrics: AdmissionWebhookMetrics | undefined,
  authorize: SynchronousAuthorize | undefined,
): Promise<{ called: boolean; changed: boolean }> {
  const m = evaluateMatchConditions(h, a, nsObject, authorize);
  if ("error" in m) throw new ErrCallingWebhook(h.webhook.name, m.error);
  if (!m.matches) return { called: false, changed: false };
  const result = await callHook(h, a, ctx, true, post, metrics);
  return { called: true, changed: result.patch !== undefined ? applyPatch(a, result.patch) : false };
}

async function runRound(
  round: number,
  hooks: readonly WebhookAccessor[],
  a: Attributes,
  ctx: AdmissionContext,
  rc: ReinvokeContext,
  namespace: (name: string) => unknown,
  post: WebhookPoster | undefined,
  metrics: AdmissionWebhookMetrics | undefined,
  authorize: SynchronousAuthorize | undefined,
): Promise<void> {
  const nsObject = a.namespace !== "" ? namespace(a.namespace) : undefined;
  for (const [i, h] of hooks.entries()) {
    if (!webhookMatches(h, a, namespaceLabels(a, namespace))) continue;
    // A webhook is never called for the first time in the reinvocation round.
    if (round > 0 && !rc.reinvoke.has(h.uid)) continue;
    let outcome: { called: boolean; changed: boolean };
    try {
      outcome = await callMutatingHook(h, a, ctx, nsObject, post, metrics, authorize);
    } catch (e) {
      if (!(e instanceof ErrCallingWebhook)) throw e;
      if (h.webhook.failurePolicy !== "Ignore") throw callFailure(e);
      outcome = { called: false, changed: false };
    }
    if (outcome.called) {
      ctx.auditAnnotations[`mutation.webhook.admission.k8s.io/round_${round}_index_${i}`] = JSON.stringify({
        configuration: h.configurationName,
        webhook: h.webhook.name,
        mutated: outcome.changed,
      });
    }
    if (outcome.changed) {
      // RequireReinvokingPreviouslyInvokedPlugins: those called before this one may want another look.
      for (const uid of rc.previouslyInvokedReinvocable) rc.reinvoke.add(uid);
      rc.previouslyInvokedReinvocable.clear();
      rc.shouldReinvoke = true;
    }
    if (h.webhook.reinvocationPolicy === "IfNeeded") rc.previouslyInvokedReinvocable.add(h.uid);
  }
}

/** Runs the mutating webhooks of `hooks` that match `a`, mutating `a.object`; throws the first refusal. */
export const dispatchMutating: Dispatcher = async (hooks, a, ctx, namespace, post, metrics, authorize) => {
  const rc: ReinvokeContext = { previouslyInvokedReinvocable: new Set(), reinvoke: new Set(), shouldReinvoke: false };
  await runRound(0, hooks, a, ctx, rc, namespace, post, metrics, authorize);
  if (rc.shouldReinvoke && rc.reinvoke.size > 0) await runRound(1, hooks, a, ctx, rc, namespace, post, metrics, authorize);
};
